package dev.tidings.journeys;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Who last did an activity in a window of time, from the activity the shop sent. */
@FunctionalInterface
public interface Lapses {
  /**
   * The people whose latest {@code activity} happened in [{@code from}, {@code to}), after {@code
   * after} in id order, at most {@code limit}.
   */
  List<String> lastDoneWithin(
      String activity, Instant from, Instant to, Optional<String> after, int limit);
}
