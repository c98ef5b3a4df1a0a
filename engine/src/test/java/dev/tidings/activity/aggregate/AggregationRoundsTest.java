package dev.tidings.activity.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AggregationRoundsTest {
  private final AggregationRunner.Options options =
      new AggregationRunner.Options(5_000, 40_000, Duration.ofMillis(50), 2);

  @Test
  void a_full_round_doubles_the_next_up_to_the_most_and_a_short_one_goes_back() {
    assertThat(options.next(5_000, 5_000)).isEqualTo(10_000);
    assertThat(options.next(20_000, 20_000)).isEqualTo(40_000);
    assertThat(options.next(40_000, 40_000)).isEqualTo(40_000);
    assertThat(options.next(40_000, 39_999)).isEqualTo(5_000);
    assertThat(options.next(5_000, 0)).isEqualTo(5_000);
  }

  @Test
  void the_most_is_at_least_the_first_round() {
    assertThatThrownBy(() -> new AggregationRunner.Options(5_000, 4_999, Duration.ofMillis(50), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBatch");
  }

  @Test
  void a_round_is_counted_with_its_events_and_the_rows_it_wrote_per_table() {
    var registry = new SimpleMeterRegistry();
    var metrics = new CountingMetrics(registry);

    metrics.counted(300, 1_200, 90, Duration.ofMillis(40));
    metrics.counted(100, 500, 30, Duration.ofMillis(10));

    assertThat(
            registry.get("tidings_aggregation_events_counted_total").counter().count())
        .isEqualTo(400);
    assertThat(registry
            .get("tidings_aggregation_rows_written_total")
            .tag("table", "aggregates")
            .counter()
            .count())
        .isEqualTo(1_700);
    assertThat(registry
            .get("tidings_aggregation_rows_written_total")
            .tag("table", "people")
            .counter()
            .count())
        .isEqualTo(120);
    assertThat(registry.get("tidings_aggregation_round_events").summary().max()).isEqualTo(300);
    assertThat(registry.get("tidings_aggregation_rounds_seconds").timer().count())
        .isEqualTo(2);
  }
}
