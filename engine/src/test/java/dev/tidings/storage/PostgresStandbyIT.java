package dev.tidings.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.app.Infrastructure;
import dev.tidings.config.SettingsLoader;
import dev.tidings.testing.PostgresStandbyPair;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * A node's pool on a primary and its streaming standby, named together in one multi-host URL: it
 * finds the primary, reads from the standby through a second pool, and after the primary is killed
 * and the standby promoted, writes again within seconds, its change feed listening again. The tests
 * run in order on one pair: the last one kills the primary.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(180)
class PostgresStandbyIT {
  private static PostgresStandbyPair pair;
  private static Database database;
  private static final SimpleMeterRegistry METRICS = new SimpleMeterRegistry();

  @BeforeAll
  static void start() {
    pair = PostgresStandbyPair.start(PostgresStandbyPair.Replication.SYNCHRONOUS);
    database = Database.connect(spec(pair.multiHostUrl(), 4), () -> {}, METRICS);
    database.migrate();
    database
        .jdbi()
        .useHandle(
            handle -> handle.execute(
                "CREATE TABLE IF NOT EXISTS failover_probe (id bigint PRIMARY KEY, at timestamptz NOT NULL)"));
  }

  @AfterAll
  static void stop() {
    if (database != null) database.close();
    if (pair != null) pair.close();
  }

  private static ConnectionSpec spec(String url, int poolSize) {
    return new ConnectionSpec(url, Optional.empty(), Optional.empty(), "public", poolSize);
  }

  private static int serverPort(Database on) {
    return on.jdbi()
        .withHandle(handle ->
            handle.createQuery("SELECT inet_server_port()").mapTo(Integer.class).one());
  }

  @Test
  @Order(1)
  void the_multi_host_url_finds_the_primary_and_the_description_names_both_hosts() {
    assertThat(serverPort(database)).isEqualTo(pair.primaryPort());
    boolean inRecovery = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT pg_is_in_recovery()")
            .mapTo(Boolean.class)
            .one());
    assertThat(inRecovery).isFalse();
    assertThat(database.describe())
        .contains("127.0.0.1:" + pair.primaryPort() + ",127.0.0.1:" + pair.standbyPort());
    // Flyway's history landed on the primary and streamed to the standby
    try (var standby = Database.connectForReads(spec(pair.standbyUrl(), 2), METRICS)) {
      long applied = standby
          .jdbi()
          .withHandle(handle -> handle
              .createQuery("SELECT count(*) FROM flyway_schema_history WHERE success")
              .mapTo(Long.class)
              .one());
      assertThat(applied).isPositive();
    }
  }

  @Test
  @Order(2)
  void reads_on_the_read_url_see_committed_writes_and_the_lag_is_measured() {
    database
        .jdbi()
        .useHandle(handle ->
            handle.execute("INSERT INTO failover_probe VALUES (1, now()) ON CONFLICT DO NOTHING"));
    try (var reads = Database.connectForReads(spec(pair.standbyUrl(), 2), METRICS)) {
      assertThat(serverPort(reads)).isEqualTo(pair.standbyPort());
      // synchronous_commit = on waits for the standby's flush, not its replay: wait for the replay
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      long seen = 0;
      while (seen == 0 && System.nanoTime() < deadline) {
        seen = reads
            .jdbi()
            .withHandle(handle -> handle
                .createQuery("SELECT count(*) FROM failover_probe WHERE id = 1")
                .mapTo(Long.class)
                .one());
      }
      assertThat(seen).isEqualTo(1);
      var lag = reads.replicationLag();
      assertThat(lag).as("a standby reports its lag").isPresent();
      assertThat(lag.get().behind()).isLessThan(Duration.ofSeconds(10));
      assertThat(database.replicationLag()).as("the primary is no standby").isEmpty();
      // the read pool is read-only: a write is refused there, not silently applied
      assertThatThrownBy(() -> reads
              .jdbi()
              .useHandle(handle -> handle.execute("INSERT INTO failover_probe VALUES (2, now())")))
          .satisfies(failure -> assertThat(Unreachable.database(failure)).isTrue());
    }
  }

  @Test
  @Order(3)
  void a_node_with_a_read_url_reads_on_the_standby_and_shows_its_lag() throws Exception {
    var dataDir = Files.createTempDirectory("tidings-read-url");
    var settings = SettingsLoader.load(Map.of(
        "TIDINGS_DB_URL", pair.multiHostUrl(),
        "TIDINGS_DB_READ_URL", pair.standbyUrl(),
        "TIDINGS_DB_POOL_SIZE", "2",
        "TIDINGS_DATA_DIR", dataDir.toString()));
    try (var node = new Infrastructure(settings)) {
      assertThat(serverPort(node.database())).isEqualTo(pair.primaryPort());
      assertThat(serverPort(node.readDatabase())).isEqualTo(pair.standbyPort());
      var check = node.dependencyChecks().stream()
          .filter(c -> c.name().equals("postgresql-read"))
          .findFirst()
          .orElseThrow();
      assertThat(check.problem().get()).isEmpty();
      assertThat(check.detail().get())
          .hasValueSatisfying(detail ->
              assertThat(detail).matches("replication lag \\d+ ms, \\d+ bytes not replayed"));
      assertThat(check.target()).contains(":" + pair.standbyPort());
    }
  }

  @Test
  @Order(4)
  void a_write_pool_that_lands_on_a_standby_drops_the_connection_and_counts_it() {
    var metrics = new SimpleMeterRegistry();
    // a single-host URL leaves the server type to the operator: here it is the standby
    try (var wrong = Database.connect(spec(pair.standbyUrl(), 1), () -> {}, metrics)) {
      for (int attempt = 0; attempt < 2; attempt++) {
        assertThatThrownBy(() -> wrong
                .jdbi()
                .useHandle(
                    handle -> handle.execute("INSERT INTO failover_probe VALUES (3, now())")))
            .satisfies(failure -> assertThat(Unreachable.database(failure))
                .as("a read-only server is waited out, as an unreachable one")
                .isTrue());
      }
      assertThat(metrics
              .get("tidings_db_connections_evicted_total")
              .tags("pool", "primary", "reason", "read_only")
              .counter()
              .count())
          .isEqualTo(2.0);
    }
  }

  @Test
  @Order(5)
  void after_the_primary_dies_and_the_standby_is_promoted_the_pool_and_the_feed_work_again()
      throws Exception {
    var connects = new AtomicInteger();
    List<String> heard = new CopyOnWriteArrayList<>();
    try (var feed = ChangeFeed.start(
        database,
        "failover_feed",
        new ChangeFeed.Listener() {
          @Override
          public void lost() {
            connects.incrementAndGet();
          }

          @Override
          public void changed(List<String> items) {
            heard.addAll(items);
          }
        },
        METRICS)) {
      awaitTrue(feed::listening, Duration.ofSeconds(10));
      for (int id = 10; id < 20; id++) insert(id);

      // a writer keeps writing through the kill and the promotion, as a node does: each failure
      // must say "out of reach", and writes come back on their own
      var writerFailures = new AtomicInteger();
      var otherFailure = new AtomicReference<Throwable>();
      var firstWrite = new AtomicLong();
      var killed = new AtomicLong();
      Thread writer = Thread.ofVirtual().start(() -> {
        for (int id = 1_000; firstWrite.get() == 0 && otherFailure.get() == null; id++) {
          try {
            insert(id);
            if (killed.get() != 0) firstWrite.compareAndSet(0, System.nanoTime());
          } catch (RuntimeException e) {
            if (!Unreachable.database(e)) otherFailure.set(e);
            writerFailures.incrementAndGet();
          }
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      long killedAt = System.nanoTime();
      pair.killPrimary();
      killed.set(System.nanoTime());
      pair.promoteStandby();
      long promotedAt = System.nanoTime();
      writer.join(Duration.ofSeconds(30));
      writer.interrupt();
      assertThat(otherFailure.get()).as("a failure other than \"out of reach\"").isNull();
      assertThat(firstWrite.get())
          .as("a write on the promoted standby within 30 s")
          .isPositive();
      long firstWriteAt = firstWrite.get();
      int failures = writerFailures.get();
      System.out.printf(
          "[failover] promotion took %d ms; first write on the promoted standby %d ms after the kill"
              + " (%d ms after the promotion, %d failed attempts)%n",
          (promotedAt - killedAt) / 1_000_000,
          (firstWriteAt - killedAt) / 1_000_000,
          (firstWriteAt - promotedAt) / 1_000_000,
          failures);
      assertThat(serverPort(database)).isEqualTo(pair.standbyPort());
      long kept = database
          .jdbi()
          .withHandle(handle -> handle
              .createQuery("SELECT count(*) FROM failover_probe WHERE id BETWEEN 10 AND 19")
              .mapTo(Long.class)
              .one());
      assertThat(kept)
          .as("every write the primary acknowledged is on the promoted standby")
          .isEqualTo(10);
      assertThat(database.migrate().migrationsExecuted)
          .as("migrations run on the new primary")
          .isZero();

      awaitTrue(() -> connects.get() >= 2 && feed.listening(), Duration.ofSeconds(20));
      database
          .jdbi()
          .useHandle(handle ->
              handle.execute("SELECT pg_notify('failover_feed', 'public' || chr(10) || 'after')"));
      awaitTrue(() -> heard.contains("after"), Duration.ofSeconds(10));
    }
  }

  private static void insert(int id) {
    database
        .jdbi()
        .useHandle(handle -> handle.execute(
            "INSERT INTO failover_probe VALUES (?, now()) ON CONFLICT DO NOTHING", id));
  }

  private static void awaitTrue(BooleanSupplier condition, Duration within)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited " + within).isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
