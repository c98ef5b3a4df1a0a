package dev.tidings.journeys;

import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.Election;
import dev.tidings.queue.WorkQueue;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import org.jdbi.v3.core.Jdbi;

/**
 * Journeys at work on a node, built from the ports the other capabilities answer: the listener that
 * lets people in, the consumer that moves them, and the sweep that finds anyone whose message was
 * lost.
 */
public final class JourneyRuntime {
  static final Duration SWEEP_EVERY = Duration.ofSeconds(15);
  static final Duration LAPSED_FIRST = Duration.ofMinutes(1);
  static final Duration LAPSED_EVERY = Duration.ofHours(1);

  private final LiveJourneys journeys;
  private final EntryListener entries;
  private final Stepper stepper;
  private final DueSweeper sweeper;
  private final LapsedLook lapsed;

  public JourneyRuntime(
      Jdbi jdbi,
      JourneyStore store,
      ReaderLimitsStore limits,
      People people,
      StepSender sender,
      Lapses lapses,
      WorkQueue queue,
      MeterRegistry registry,
      InstantSource clock,
      int consumers) {
    var metrics = new JourneyMetrics(registry);
    this.journeys = new LiveJourneys(store);
    this.entries = new EntryListener(jdbi, journeys, people, queue, metrics, clock);
    this.stepper =
        new Stepper(jdbi, journeys, people, sender, limits, queue, metrics, clock, consumers);
    this.sweeper = new DueSweeper(jdbi, queue, metrics, clock);
    this.lapsed = new LapsedLook(jdbi, journeys, entries, lapses, clock);
  }

  public EntryListener entries() {
    return entries;
  }

  public Stepper stepper() {
    return stepper;
  }

  /** Queues the people overdue now; answers how many. */
  public int sweep() {
    return sweeper.sweep();
  }

  public BackgroundJob sweepJob() {
    return BackgroundJob.of(
        "journey-sweep", SWEEP_EVERY, SWEEP_EVERY, Election.everyNode(), sweeper::sweep);
  }

  /** Lets in the people whose last purchase is as long ago as a win-back asks; answers how many. */
  public int lookForLapsed() {
    return lapsed.look();
  }

  /** The look for lapsed customers, once an hour on one node. */
  public BackgroundJob lapsedJob() {
    return BackgroundJob.of(
        "journey-lapsed", LAPSED_FIRST, LAPSED_EVERY, Election.computeOnce(), lapsed::look);
  }

  /** Forgets the journeys' states read, after this node changed one. */
  public void refresh() {
    journeys.refresh();
  }
}
