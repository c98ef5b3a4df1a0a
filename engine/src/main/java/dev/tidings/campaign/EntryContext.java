package dev.tidings.campaign;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What an email is about beyond its template, per recipient: the products of the journey entry that
 * sends it (the cart left behind, the product back in stock), shown as cards in the reader's market.
 * Asked once per batch of a run's emails; a run that is no journey's answers nothing, cheaply.
 */
@FunctionalInterface
public interface EntryContext {
  EntryContext NONE = (campaignId, runId, subscriberIds) -> Map.of();

  /** The cards for each recipient among {@code subscriberIds} of the run that has any. */
  Map<String, List<DigestSource.Notice>> cards(
      long campaignId, long runId, Collection<String> subscriberIds);
}
