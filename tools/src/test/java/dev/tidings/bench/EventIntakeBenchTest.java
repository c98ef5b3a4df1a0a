package dev.tidings.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.config.Secret;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.HttpServer;
import dev.tidings.web.activity.ActivityRoutes;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event intake benchmark runs all three ways on a small scale, and they agree on what was stored. */
class EventIntakeBenchTest {
  private static final String KEY = "event-bench-test-key-0123456789";

  @Test
  void generated_ids_repeat_within_a_batch_and_from_long_stored_batches() {
    var options = new EventIntakeBench.Options(5_000, 100, 4, 11);
    List<ActivityEvent> events = EventIntakeBench.generate("ev", options);
    var firstSeen = new HashMap<String, Integer>();
    int withinBatch = 0;
    int farBack = 0;
    for (int i = 0; i < events.size(); i++) {
      String id = events.get(i).eventId().orElseThrow();
      Integer first = firstSeen.putIfAbsent(id, i);
      if (first == null) continue;
      if (first / options.batch() == i / options.batch()) withinBatch++;
      else if (i / options.batch() - first / options.batch() > 2 * options.callers()) farBack++;
    }
    assertThat(withinBatch).isGreaterThan(50);
    assertThat(farBack).isGreaterThan(20);
    assertThat(withinBatch + farBack).isEqualTo(events.size() - firstSeen.size());
    assertThat(EventIntakeBench.generate("ev", options)).isEqualTo(events);
  }

  @Test
  void every_way_stores_one_row_per_distinct_id_and_counts_the_rest_as_duplicates() {
    var out = new ByteArrayOutputStream();
    try (var database = TestDatabases.embedded()) {
      var result = EventIntakeBench.run(
          database,
          new EventIntakeBench.Options(3_000, 100, 4, 7),
          intake -> {
            var server = HttpServer.start(
                new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                List.of(),
                List.of(new ActivityRoutes(intake, 1 << 20, 1 << 20)));
            return new EventIntakeBench.Endpoint(
                URI.create("http://127.0.0.1:" + server.port() + "/api/v1/events"),
                KEY,
                server::close);
          },
          (task, total) -> new Tracker() {
            @Override
            public void stepTo(long done) {}

            @Override
            public void close() {}
          },
          new PrintStream(out, true, StandardCharsets.UTF_8));

      assertThat(result.repeatedIds()).isPositive();
      assertThat(result.phases()).hasSize(3).allSatisfy(phase -> {
        assertThat(phase.events()).isEqualTo(3_000);
        assertThat(phase.stored()).isEqualTo(3_000 - result.repeatedIds());
        assertThat(phase.duplicates()).isEqualTo(result.repeatedIds());
        assertThat(phase.p99Millis()).isGreaterThanOrEqualTo(phase.p50Millis());
      });
    }
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("(a) bulk importer per batch", "(b) direct", "(c) direct over HTTP");
  }
}
