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

  private final LiveJourneys journeys;
  private final EntryListener entries;
  private final Stepper stepper;
  private final DueSweeper sweeper;

  public JourneyRuntime(
      Jdbi jdbi,
      JourneyStore store,
      ReaderLimitsStore limits,
      People people,
      StepSender sender,
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

  /** Forgets the journeys' states read, after this node changed one. */
  public void refresh() {
    journeys.refresh();
  }
}
