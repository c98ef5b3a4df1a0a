package dev.tidings.storage;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A stored row that breaks today's rules is counted on every read and logged once per row and
 * field, whichever handle of the database read it; the node's metrics show the count.
 */
@StartsServers
class StoredRowsTest {
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger log = (Logger) LoggerFactory.getLogger(StoredRows.class);

  @BeforeEach
  void listen() {
    logged.start();
    log.addAppender(logged);
  }

  @AfterEach
  void stopListening() {
    log.detachAppender(logged);
  }

  private static void readBrokenRowsOnSeveralHandles(Database database) {
    var jdbi = database.jdbi();
    for (int read = 0; read < 3; read++) {
      jdbi.useHandle(handle -> handle
          .createQuery("SELECT 1")
          .map((rs, ctx) -> {
            StoredRows.of(ctx).fieldDropped("products", "landing_url", "p-1", "not a URL");
            return 1;
          })
          .one());
    }
    jdbi.useHandle(handle -> handle
        .createQuery("SELECT 1")
        .map((rs, ctx) -> {
          StoredRows.of(ctx).rowLeftOut("products", "title", "p-2", "title must not be empty");
          return 1;
        })
        .one());
  }

  @Test
  void every_read_counts_but_a_row_and_field_are_logged_once_across_handles() {
    try (var database = Database.connect(
        TestDatabases.embeddedServer().connectionSpec(2), () -> {}, new SimpleMeterRegistry())) {
      readBrokenRowsOnSeveralHandles(database);

      assertThat(StoredRows.of(database.jdbi()).counted("products", "landing_url"))
          .isEqualTo(3);
      assertThat(logged.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .hasSize(2)
          .anySatisfy(line -> assertThat(line).contains("products p-1: landing_url"))
          .anySatisfy(
              line -> assertThat(line).contains("products p-2: title").contains("left out"));
    }
  }

  @Test
  void the_node_s_metrics_show_the_count_by_table_and_field() {
    var metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (var database =
        Database.connect(TestDatabases.embeddedServer().connectionSpec(2), () -> {}, metrics)) {
      readBrokenRowsOnSeveralHandles(database);

      assertThat(metrics.scrape())
          .contains(
              "tidings_stored_rows_unreadable_total{field=\"landing_url\",table=\"products\"} 3.0")
          .contains("tidings_stored_rows_unreadable_total{field=\"title\",table=\"products\"} 1.0");
    }
  }
}
