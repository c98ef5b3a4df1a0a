package dev.tidings.activity.aggregate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * What counting rounds do, on this node: {@code tidings_aggregation_rounds_seconds} (how long a round
 * takes, claim to commit), {@code tidings_aggregation_round_events} (events per round: rounds grow
 * under load), {@code tidings_aggregation_events_counted_total}, and {@code
 * tidings_aggregation_rows_written_total} by {@code table} (aggregates and days summed per key; people,
 * each person's first touch of an aggregate a day in the round): rows per event is what the
 * database's write rate divides.
 */
final class CountingMetrics {
  private final Timer rounds;
  private final DistributionSummary roundEvents;
  private final Counter events;
  private final Counter aggregateRows;
  private final Counter peopleRows;

  CountingMetrics(MeterRegistry registry) {
    this.rounds = Timer.builder("tidings_aggregation_rounds_seconds")
        .description("Counting rounds that counted events, claim to commit")
        .register(registry);
    this.roundEvents = DistributionSummary.builder("tidings_aggregation_round_events")
        .description("Events counted per round")
        .register(registry);
    this.events = Counter.builder("tidings_aggregation_events_counted_total")
        .description("Events counted into the aggregates")
        .register(registry);
    this.aggregateRows = Counter.builder("tidings_aggregation_rows_written_total")
        .tag("table", "aggregates")
        .description("Rows written by counting")
        .register(registry);
    this.peopleRows = Counter.builder("tidings_aggregation_rows_written_total")
        .tag("table", "people")
        .description("Rows written by counting")
        .register(registry);
  }

  void counted(int eventCount, int aggregates, int people, Duration took) {
    rounds.record(took);
    roundEvents.record(eventCount);
    events.increment(eventCount);
    aggregateRows.increment(aggregates);
    peopleRows.increment(people);
  }
}
