package dev.tidings.queue.postgres;

import dev.tidings.queue.Disposition;
import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What single-message and batch consumers share about claiming and about failed deliveries. */
final class Claims {
  private static final Logger log = LoggerFactory.getLogger(Claims.class);

  private Claims() {}

  /** A claim, or nothing when the database cannot be reached (the consumer waits a poll interval). */
  static List<Claimed> claimOrEmpty(
      MessageTable table, QueueSpec spec, int wanted, int oldest, PostgresQueueOptions options) {
    try {
      return table.claim(spec, wanted, oldest);
    } catch (RuntimeException e) {
      log.warn(
          "cannot claim from queue '{}', retrying in {}: {}",
          spec.name(),
          options.pollInterval(),
          e.toString());
      return List.of();
    }
  }

  static Disposition timedOut(Duration limit) {
    return Disposition.retry("handler interrupted after its time limit of " + limit);
  }

  static Disposition pastMaxDeliveries(Claimed message, QueueSpec spec) {
    return Disposition.reject("delivered " + message.deliveries() + " times (max deliveries "
        + spec.maxDeliveries() + ")");
  }
}
