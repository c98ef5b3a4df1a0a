package dev.tidings.queue.postgres;

import dev.tidings.queue.Disposition;
import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What single-message and batch consumers share about claiming and about failed deliveries. */
final class Claims {
  private static final Logger log = LoggerFactory.getLogger(Claims.class);

  private Claims() {}

  /**
   * Past the due time it was told, an idle consumer looks this much later, so that the clocks of the
   * JVM and of the database need not agree to the microsecond for it to find the message due.
   */
  private static final Duration DUE_MARGIN = Duration.ofMillis(2);

  /** A claim, or nothing when the database cannot be reached (the consumer waits a poll interval). */
  static MessageTable.Claim claimOrEmpty(
      MessageTable table, QueueSpec spec, int wanted, int oldest, PostgresQueueOptions options) {
    try {
      return table.claim(spec, wanted, oldest);
    } catch (RuntimeException e) {
      log.warn(
          "cannot claim from queue '{}', retrying in {}: {}",
          spec.name(),
          options.pollInterval(),
          e.toString());
      return MessageTable.Claim.NONE;
    }
  }

  /**
   * How long a consumer whose claim found nothing sleeps unless woken: its poll interval, or less when
   * a delayed message of the queue is due before that (a little past its due time; at once when due
   * ones are still to be moved in).
   */
  static Duration idleWait(MessageTable.Claim claim, PostgresQueueOptions options) {
    Duration poll = options.pollInterval();
    return claim
        .nextDue()
        .map(due -> due.isZero() ? due : due.plus(DUE_MARGIN))
        .filter(due -> due.compareTo(poll) < 0)
        .orElse(poll);
  }

  static Disposition timedOut(Duration limit) {
    return Disposition.retry("handler interrupted after its time limit of " + limit);
  }

  static Disposition pastMaxDeliveries(Claimed message, QueueSpec spec) {
    return Disposition.reject("delivered " + message.deliveries() + " times (max deliveries "
        + spec.maxDeliveries() + ")");
  }
}
