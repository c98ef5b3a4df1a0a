package dev.tidings.opentime;

import java.util.List;

/**
 * Tells which engagements people made and which machines did (proxies that prefetch, link scanners):
 * the delivery capability decides, as it does for its funnel, so activity and the funnel agree.
 */
@FunctionalInterface
public interface HumanEngagements {
  /** The engagements of {@code engagements} that people made, in their order. */
  List<Engagement> madeByPeople(List<Engagement> engagements);
}
