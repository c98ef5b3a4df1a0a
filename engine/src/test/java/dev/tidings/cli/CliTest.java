package dev.tidings.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.storage.Database;
import dev.tidings.testing.CommandRuns;
import dev.tidings.testing.CommandRuns.Run;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a user meets it: exit statuses and what it prints. */
@StartsServers
class CliTest {
  @TempDir
  Path dataDir;

  private Run run(Map<String, String> environment, String... args) {
    return CommandRuns.capture(() -> TidingsCommand.run(environment, args));
  }

  @AfterAll
  static void restoreTestLogging() throws Exception {
    CommandRuns.restoreTestLogging();
  }

  private Map<String, String> embedded() {
    return Map.of("TIDINGS_DATA_DIR", dataDir.toString());
  }

  @Test
  void no_command_is_a_usage_error() {
    var run = run(embedded());
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("a command is required");
  }

  @Test
  void an_unknown_command_or_kind_is_a_usage_error() {
    assertThat(run(embedded(), "frobnicate").status()).isEqualTo(2);
    var kind = run(embedded(), "import", "widgets", "x.csv");
    assertThat(kind.status()).isEqualTo(2);
    assertThat(kind.err()).contains("widgets");
  }

  @Test
  void a_bad_setting_is_a_usage_error_that_names_it() {
    var run =
        run(Map.of("TIDINGS_PORT", "eighty", "TIDINGS_DATA_DIR", dataDir.toString()), "migrate");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("TIDINGS_PORT: not a whole number: eighty");
  }

  @Test
  void importing_a_missing_file_is_a_usage_error() {
    var run = run(embedded(), "import", "products", dataDir.resolve("nope.csv").toString());
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("no such file");
    assertThat(dataDir.resolve("pg")).doesNotExist();
  }

  @Test
  void a_file_of_unknown_format_is_refused_before_any_database_starts() throws Exception {
    Path text = Files.writeString(dataDir.resolve("products.txt"), "id,title\n");
    var run = run(embedded(), "import", "products", text.toString());
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("cannot tell the format of products.txt");
    assertThat(dataDir.resolve("pg")).doesNotExist();
  }

  /** Redis and RabbitMQ configured but down: commands that do not use them still work. */
  private Map<String, String> databaseWithUnreachableRedisAndRabbit() {
    return Map.of(
        "TIDINGS_DATA_DIR",
        dataDir.toString(),
        "TIDINGS_DB_URL",
        TestDatabases.embeddedServer().connectionSpec(2).jdbcUrl(),
        "TIDINGS_DB_USER",
        "postgres",
        "TIDINGS_REDIS_URL",
        "redis://127.0.0.1:" + closedPort(),
        "TIDINGS_AMQP_URL",
        "amqp://guest:guest@127.0.0.1:" + closedPort());
  }

  private static int closedPort() {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  @Timeout(180)
  void imported_events_are_counted_before_the_command_ends_unless_left_to_the_nodes()
      throws Exception {
    var environment = embedded();
    Path first = Files.writeString(dataDir.resolve("first.jsonl"), """
        {"userId":"u1","type":"purchase","itemId":"p1","timestamp":"2026-11-01T10:00:00Z"}
        {"userId":"u1","type":"view","itemId":"p2","timestamp":"2026-11-01T10:01:00Z"}
        {"userId":"u2","type":"purchase","itemId":"p1","timestamp":"2026-11-02T10:00:00Z"}
        """);
    var counted = run(environment, "import", "events", first.toString());
    assertThat(counted.status()).as(counted.err()).isZero();
    assertThat(counted.out()).contains("3 imported").contains("counted 3 events");
    assertThat(run(environment, "aggregates", "status").out())
        .contains("0 events wait to be counted");

    Path second = Files.writeString(dataDir.resolve("second.jsonl"), """
        {"userId":"u3","type":"purchase","itemId":"p2","timestamp":"2026-11-03T10:00:00Z"}
        {"userId":"u3","type":"view","itemId":"p1","timestamp":"2026-11-03T10:01:00Z"}
        """);
    var left = run(environment, "import", "events", second.toString(), "--no-count");
    assertThat(left.status()).as(left.err()).isZero();
    assertThat(left.out()).contains("2 imported").doesNotContain("counted");
    assertThat(run(environment, "aggregates", "status").out())
        .contains("2 events wait to be counted");
  }

  @Test
  void migrate_and_import_need_only_the_database() throws Exception {
    var environment = databaseWithUnreachableRedisAndRabbit();
    assertThat(run(environment, "migrate").status()).isZero();
    Path file = Files.writeString(dataDir.resolve("lazy.csv"), """
        id,title,price,currency,image_url,landing_url
        lazy-1,Lazy,1.00,EUR,https://i.example/l.png,https://s.example/l
        """);
    var imported = run(environment, "import", "products", file.toString());
    assertThat(imported.status()).as(imported.err()).isZero();
    assertThat(imported.out()).contains("1 imported");
  }

  @Test
  void migrate_repairs_a_row_an_earlier_version_stored_reports_it_and_then_reports_nothing() {
    var environment = databaseWithUnreachableRedisAndRabbit();
    assertThat(run(environment, "migrate").status()).isZero();
    try (var database = Database.connect(
        TestDatabases.embeddedServer().connectionSpec(2), () -> {}, new SimpleMeterRegistry())) {
      // as an earlier version stored it: straight into the table, past today's rules
      database.jdbi().useHandle(handle -> handle.execute("""
          INSERT INTO products (id, title, price, currency, image_url, landing_url, available,
                                attributes, created_at, updated_at)
          VALUES ('cli-old-landing', 'Old', 1.00, 'EUR', 'https://i.example/o.png',
                  'http://[1.2.3]/x', true, '{}', now(), now())"""));

      var repaired = run(environment, "migrate");
      assertThat(repaired.status()).as(repaired.err()).isZero();
      assertThat(repaired.out())
          .contains("schema is up to date")
          .contains("stored rows: products.landing_url repaired in 1 row(s)");
      boolean cleared = database
          .jdbi()
          .withHandle(handle -> handle
              .createQuery("SELECT landing_url IS NULL FROM products WHERE id = 'cli-old-landing'")
              .mapTo(Boolean.class)
              .one());
      assertThat(cleared).isTrue();

      var again = run(environment, "migrate");
      assertThat(again.status()).as(again.err()).isZero();
      assertThat(again.out())
          .contains("stored rows: every row reads by today's rules, none repaired")
          .doesNotContain("repaired in");
    }
  }

  @Test
  @Timeout(120)
  void serve_refuses_to_start_when_a_configured_server_is_down() {
    var run = run(databaseWithUnreachableRedisAndRabbit(), "serve", "--port", "0");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).containsAnyOf("Redis", "redis");
  }

  @Test
  @Timeout(120)
  void serve_stops_its_embedded_database_when_the_port_is_taken() throws Exception {
    try (var taken = new ServerSocket(0, 1, InetAddress.getByName("0.0.0.0"))) {
      int port = taken.getLocalPort();
      var run = run(embedded(), "serve", "--port", Integer.toString(port));
      assertThat(run.status()).isEqualTo(1);
      assertThat(run.err()).contains("cannot serve HTTP on port " + port);
      assertThat(dataDir.resolve("pg")).isDirectory();
      // a PostgreSQL that shut down removes its pid file; one left running keeps it
      assertThat(dataDir.resolve("pg").resolve("postmaster.pid")).doesNotExist();
    }
  }

  @Test
  void the_engine_knows_no_tool_command() {
    for (String tool : new String[] {"demo", "bench", "evaluate"}) {
      var run = run(embedded(), tool);
      assertThat(run.status()).as(tool).isEqualTo(2);
      assertThat(run.err()).as(tool).contains("Unmatched argument").contains(tool);
    }
  }

  @Test
  void import_reports_bad_rows_by_line_and_exits_1_then_0_for_a_clean_file() throws Exception {
    Path mixed = dataDir.resolve("mixed.csv");
    Files.writeString(mixed, """
        id,title,price,currency,imageUrl,landingUrl
        c-1,Good,1.00,EUR,https://i.example/1.png,https://s.example/1
        c-2,Bad,free,EUR,https://i.example/2.png,https://s.example/2
        """);
    var first = run(embedded(), "import", "products", mixed.toString());
    assertThat(first.status()).isEqualTo(1);
    assertThat(first.out())
        .contains("1 imported")
        .contains("1 rejected")
        .contains("line 3:")
        .contains("committed.");

    Path clean = dataDir.resolve("clean.jsonl");
    Files.writeString(clean, """
        {"id":"c-3","title":"Fine","price":"2.50","currency":"GBP","imageUrl":"https://i.example/3.png","landingUrl":"https://s.example/3"}
        """);
    var second = run(embedded(), "import", "products", clean.toString(), "--all-or-nothing");
    assertThat(second.status()).isZero();
    assertThat(second.out()).contains("1 imported").contains("0 rejected");
  }
}
