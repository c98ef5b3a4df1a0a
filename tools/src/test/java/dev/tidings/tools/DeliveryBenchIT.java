package dev.tidings.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.bench.DeliveryBench;
import dev.tidings.bench.Tracker;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The delivery bench on a small scale against real PostgreSQL: receipts posted over HTTP to the
 * delivery-events route, queued on the queue tables and consumed, end with the oracle's funnel, as
 * do the receipts fed to the store directly.
 */
@Timeout(180)
class DeliveryBenchIT {
  @Test
  void every_way_of_tidings_ends_with_the_oracles_funnel() {
    var printed = new ByteArrayOutputStream();
    try (Database database = TestDatabases.real();
        var out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
      var result = DeliveryBench.run(
          database,
          new DeliveryBench.Options(
              500,
              5_000,
              250,
              2,
              0,
              7,
              EnumSet.of(DeliveryBench.Way.HTTP, DeliveryBench.Way.STORE),
              3),
          db -> BenchDeliveryPipeline.start(db, Optional.empty(), 2, 1 << 20),
          db -> BenchEventsOut.start(db, BenchEventsOut.funnelListeners(db)),
          (task, total) -> new Tracker() {
            @Override
            public void stepTo(long done) {}

            @Override
            public void close() {}
          },
          out);
      assertThat(result.designs())
          .extracting(DeliveryBench.Design::name)
          .containsExactly("tidings http", "tidings store, events off", "tidings store");
      for (var design : result.designs()) {
        assertThat(design.receipts()).as(design.name()).isEqualTo(5_000);
        assertThat(design.funnelError()).as(design.name()).isZero();
      }
    }
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("queue on queue tables")
        .contains("all 20 requests answered")
        .contains("events out costs the receipts");
  }
}
