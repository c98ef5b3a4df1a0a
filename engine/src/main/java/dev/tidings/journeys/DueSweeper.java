package dev.tidings.journeys;

import dev.tidings.queue.WorkQueue;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the people whose look is long overdue and queues them again: a message published after the
 * commit that made someone due is lost when its node dies in between, and a paused journey's people
 * wait without messages until it moves again. Also forgets the trigger signals no trigger counts.
 */
final class DueSweeper {
  private static final Logger LOG = LoggerFactory.getLogger(DueSweeper.class);
  static final Duration OVERDUE = Duration.ofSeconds(30);
  private static final int BATCH = 1_000;

  /** The longest window a trigger counts activity in (Journey's longest wait). */
  private static final Duration SIGNALS_KEPT = Journey.LONGEST_WAIT;

  private final Jdbi jdbi;
  private final WorkQueue queue;
  private final JourneyMetrics metrics;
  private final InstantSource clock;

  DueSweeper(Jdbi jdbi, WorkQueue queue, JourneyMetrics metrics, InstantSource clock) {
    this.jdbi = jdbi;
    this.queue = queue;
    this.metrics = metrics;
    this.clock = clock;
  }

  /** One sweep: answers how many people it queued again. */
  int sweep() {
    Instant now = clock.instant();
    int found = 0;
    List<Due> overdue;
    do {
      overdue = jdbi.inTransaction(
          handle -> InstanceTable.overdue(handle, now.minus(OVERDUE), now, BATCH));
      for (Due due : overdue) queue.publish(Due.TOPIC.name(), Due.TOPIC.message(due, 0));
      found += overdue.size();
    } while (overdue.size() == BATCH);
    if (found > 0) {
      metrics.overdue(found);
      LOG.info("{} people in journeys were overdue and are queued again", found);
    }
    jdbi.useHandle(handle -> InstanceTable.forgetSignals(handle, now.minus(SIGNALS_KEPT), BATCH));
    return found;
  }
}
