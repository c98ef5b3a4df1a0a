package dev.tidings.activity.aggregate;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;

/**
 * How far counting lags behind the events, read from the database at each scrape (every node shows
 * the same shared figures): {@code tidings_aggregation_backlog_events}, the events stored and not
 * counted yet; {@code tidings_aggregation_lag_seconds}, how long the oldest of them has waited.
 */
public final class BacklogGauges {
  public static final String BACKLOG = "tidings_aggregation_backlog_events";
  public static final String LAG = "tidings_aggregation_lag_seconds";

  private BacklogGauges() {}

  public static void register(
      MeterRegistry registry, BacklogAggregation aggregation, InstantSource clock) {
    Gauge.builder(BACKLOG, aggregation, BacklogAggregation::waiting)
        .description("Activity events stored and not counted into the aggregates yet")
        .strongReference(true)
        .register(registry);
    Gauge.builder(LAG, aggregation, a -> a.lag(clock.instant()).toMillis() / 1000.0)
        .description("How long the oldest event not counted yet has waited")
        .strongReference(true)
        .baseUnit("seconds")
        .register(registry);
  }
}
