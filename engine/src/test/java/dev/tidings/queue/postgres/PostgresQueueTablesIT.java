package dev.tidings.queue.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import tools.jackson.databind.JsonNode;

/**
 * What the contract cannot see of the queue tables: how the claim reads the table, that lease
 * renewals stay HOT, and that debounced NOTIFYs still wake every idle consumer. On the machine's real
 * PostgreSQL (failsafe).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PostgresQueueTablesIT {
  private static Database database;

  @BeforeAll
  static void openDatabase() {
    RealServers.requirePostgres();
    database = TestDatabases.real();
  }

  @AfterAll
  static void closeDatabase() {
    if (database != null) database.close();
  }

  private static String queueName() {
    return "wq-" + UUID.randomUUID().toString().substring(0, 12);
  }

  private static Message message(String body, int priority) {
    return Message.of(body.getBytes(StandardCharsets.UTF_8), priority);
  }

  @Test
  void a_claim_reads_waiting_rows_only_however_many_are_leased() {
    var table = new MessageTable(database.jdbi());
    var spec = QueueSpec.of(queueName());
    table.declare(spec);
    for (int chunk = 0; chunk < 6; chunk++) {
      table.insert(
          spec, IntStream.range(0, 1_000).mapToObj(i -> message("m" + i, i % 3)).toList(), false);
    }
    int leased = 0;
    while (leased < 5_000) leased += table.claim(spec, 500, 0).claimed().size();

    for (String claim : List.of(MessageTable.CLAIM_BY_PRIORITY, MessageTable.CLAIM_WITH_OLDEST)) {
      JsonNode plan = explainAnalyzed(claim, spec);
      long buffers = plan.path("Shared Hit Blocks").asLong()
          + plan.path("Shared Read Blocks").asLong();
      assertThat(plan.toString()).contains("work_queue_message_waiting");
      assertThat(buffers)
          .as("buffers read to claim 10 of 1,000 waiting rows past 5,000 leased ones: %s", plan)
          .isLessThan(400);
    }
  }

  @Test
  void a_claim_reads_no_delayed_message_however_many_wait() {
    var table = new MessageTable(database.jdbi());
    var spec = QueueSpec.of(queueName());
    table.declare(spec);
    Instant now = Instant.now();
    for (int chunk = 0; chunk < 20; chunk++) {
      int from = chunk * 1_000;
      // delayed by an hour to three days, at the top priority: ahead of every due message in the
      // claim's order, were they in the claim's index
      table.insert(
          spec,
          IntStream.range(from, from + 1_000)
              .mapToObj(i -> message("later" + i, 9)
                  .notBefore(now.plus(Duration.ofHours(1)).plusSeconds(i * 12L)))
              .toList(),
          false);
    }
    table.insert(
        spec, IntStream.range(0, 100).mapToObj(i -> message("now" + i, 0)).toList(), false);

    JsonNode promote = explainAnalyzed(
        MessageTable.PROMOTE_DUE,
        query -> query.bind("queue", spec.name()).bind("promote", MessageTable.PROMOTE_LIMIT));
    assertThat(promote.toString()).contains("work_queue_delayed_due").doesNotContain("Seq Scan");
    assertThat(buffers(promote))
        .as("buffers read to find no due message among 20,000 delayed: %s", promote)
        .isLessThan(50);
    for (String claim : List.of(MessageTable.CLAIM_BY_PRIORITY, MessageTable.CLAIM_WITH_OLDEST)) {
      JsonNode plan = explainAnalyzed(claim, spec);
      List<JsonNode> walks = plan.findParents("Index Name").stream()
          .filter(node -> node.path("Index Name").asString().equals("work_queue_message_waiting"))
          .toList();
      assertThat(walks).as("walks of the claim index: %s", plan).isNotEmpty();
      assertThat(walks)
          .as("rows the claim read and passed over beside 20,000 delayed: %s", plan)
          .allSatisfy(
              walk -> assertThat(walk.path("Rows Removed by Filter").asLong()).isZero());
      assertThat(buffers(plan))
          .as("buffers read and written to claim 10 of 100 due messages: %s", plan)
          .isLessThan(400);
    }

    MessageTable.Claim claim = table.claim(spec, 10, 0);
    assertThat(claim.claimed())
        .hasSize(10)
        .allSatisfy(m -> assertThat(m.priority()).isZero());
    assertThat(claim.nextDue())
        .hasValueSatisfying(
            due -> assertThat(due).isBetween(Duration.ofMinutes(59), Duration.ofHours(1)));
    assertThat(table.delayed(spec.name())).isEqualTo(20_000);
    assertThat(table.depth(spec.name())).isEqualTo(90);
  }

  private static long buffers(JsonNode plan) {
    return plan.path("Shared Hit Blocks").asLong()
        + plan.path("Shared Read Blocks").asLong();
  }

  /** Runs {@code claim} for 10 messages under EXPLAIN (ANALYZE, BUFFERS) and undoes it. */
  private static JsonNode explainAnalyzed(String claim, QueueSpec spec) {
    return explainAnalyzed(claim, query -> {
      query
          .bind("token", UUID.randomUUID())
          .bind("leaseMs", 60_000)
          .bind("queue", spec.name())
          .bind("limit", 10);
      if (claim.contains(":oldest"))
        query.bind("oldest", 1).bind("maxPriority", spec.maxPriority());
      return query;
    });
  }

  /** Runs {@code statement} with the parameters {@code bind} gives under EXPLAIN (ANALYZE, BUFFERS) and undoes it. */
  private static JsonNode explainAnalyzed(String statement, UnaryOperator<Query> bind) {
    return database.jdbi().withHandle(handle -> {
      handle.begin();
      try {
        String json = bind.apply(
                handle.createQuery("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + statement))
            .mapTo(String.class)
            .one();
        return Json.MAPPER.readTree(json).get(0).get("Plan");
      } finally {
        handle.rollback();
      }
    });
  }

  @Test
  void concurrent_claims_never_lease_more_than_their_limit_nor_one_message_twice()
      throws Exception {
    var table = new MessageTable(database.jdbi());
    var spec = QueueSpec.of(queueName()).withOldestEvery(3);
    table.declare(spec);
    int count = 3_000;
    table.insert(
        spec, IntStream.range(0, count).mapToObj(i -> message("c" + i, i % 10)).toList(), false);
    Map<Long, Integer> leased = new ConcurrentHashMap<>();
    List<Integer> oversized = new CopyOnWriteArrayList<>();
    List<Thread> claimers = new ArrayList<>();
    for (int c = 0; c < 8; c++) {
      int limit = 1 + c % 3;
      claimers.add(Thread.ofVirtual().start(() -> {
        var share = new OldestShare(spec.oldestEvery());
        while (true) {
          List<Claimed> claimed =
              table.claim(spec, limit, share.oldestOf(limit)).claimed();
          if (claimed.isEmpty()) return;
          share.took(claimed.size());
          if (claimed.size() > limit) oversized.add(claimed.size());
          for (Claimed message : claimed) leased.merge(message.id(), 1, Integer::sum);
        }
      }));
    }
    for (Thread claimer : claimers) claimer.join();

    assertThat(oversized).as("claims that leased more than their limit").isEmpty();
    assertThat(leased).hasSize(count);
    assertThat(leased.values()).as("messages leased twice").containsOnly(1);
  }

  @Test
  void renewing_leases_can_be_hot() {
    var table = new MessageTable(database.jdbi());
    var spec = QueueSpec.of(queueName());
    table.declare(spec);
    table.insert(
        spec, IntStream.range(0, 200).mapToObj(i -> message("r" + i, 4)).toList(), false);
    List<Claimed> claimed = table.claim(spec, 200, 0).claimed();
    assertThat(claimed).hasSize(200);

    // Every lease of the queue renewed in one transaction, right after the claim took the pages'
    // spare room: the worst case. Between renewals, pruning gives the room back.
    List<Long> hot = List.of(hotRenewals(spec), hotRenewals(spec), hotRenewals(spec));
    // With visible_at in an index (the earlier layout) no renewal could be HOT; how many are
    // depends on the room other rows left on the pages, so the bound is loose: some in every round,
    // and a quarter in all.
    assertThat(hot)
        .as("HOT updates among 3 rounds of 200 renewals")
        .allSatisfy(count -> assertThat(count).isPositive());
    assertThat(hot.stream().mapToLong(Long::longValue).sum())
        .as("HOT updates among all 600 renewals: %s", hot)
        .isGreaterThanOrEqualTo(150L);
  }

  /** Renews every lease of the queue in one transaction, as the lease keeper does; how many were HOT. */
  private static long hotRenewals(QueueSpec spec) {
    return database.jdbi().inTransaction(handle -> {
      long before = hotSoFar(handle);
      int renewed = handle.createUpdate("""
              UPDATE work_queue_message SET visible_at = visible_at + interval '1 second'
               WHERE queue = :queue AND claim_token IS NOT NULL
              """).bind("queue", spec.name()).execute();
      assertThat(renewed).isEqualTo(200);
      return hotSoFar(handle) - before;
    });
  }

  /** HOT updates of the message table this connection made and has not reported yet. */
  private static long hotSoFar(Handle handle) {
    return handle
        .createQuery(
            "SELECT pg_stat_get_xact_tuples_hot_updated(CAST('work_queue_message' AS regclass))")
        .mapTo(Long.class)
        .one();
  }

  @Test
  void debounced_notifications_wake_an_idle_consumer_for_every_publish_and_are_few()
      throws Exception {
    String queue = queueName();
    // The consumer's node would poll only every minute: whatever it gets sooner came by NOTIFY.
    var consumerOptions = new PostgresQueueOptions(Duration.ofMinutes(1), Duration.ofMillis(5));
    Duration interval = Duration.ofMillis(500);
    var publisherOptions = new PostgresQueueOptions(Duration.ofMinutes(1), interval);
    try (var consumerNode =
            new PostgresWorkQueue(database, consumerOptions, new SimpleMeterRegistry());
        var publisherNode =
            new PostgresWorkQueue(database, publisherOptions, new SimpleMeterRegistry());
        var listener = new Listener(database, queue)) {
      consumerNode.declare(QueueSpec.of(queue));
      Map<String, Long> consumedAt = new ConcurrentHashMap<>();
      try (Subscription subscription = consumerNode.subscribe(queue, 1, 10, delivery -> {
        consumedAt.put(new String(delivery.body(), StandardCharsets.UTF_8), System.nanoTime());
        return Disposition.ACK;
      })) {
        Thread.sleep(300); // the consumer found the queue empty and sleeps

        long first = System.nanoTime();
        publisherNode.publish(queue, message("first", 1));
        awaitConsumed(consumedAt, "first", Duration.ofSeconds(2));
        assertThat(millisBetween(first, consumedAt.get("first")))
            .as("the first publish in a while is announced at once")
            .isLessThan(interval.toMillis() / 2);

        Thread.sleep(100); // consumer asleep again, within the interval of the first NOTIFY
        long second = System.nanoTime();
        publisherNode.publish(queue, message("second", 1));
        awaitConsumed(consumedAt, "second", Duration.ofSeconds(5));
        assertThat(millisBetween(second, consumedAt.get("second")))
            .as("a publish within the interval waits for its end, but is announced")
            .isBetween(100L, interval.toMillis() + 1_000);

        Thread.sleep(interval.toMillis() + 100);
        int before = listener.count();
        long burstStart = System.nanoTime();
        List<Thread> publishers = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
          int publisher = p;
          publishers.add(Thread.ofVirtual().start(() -> {
            for (int i = 0; i < 25; i++)
              publisherNode.publish(queue, message(publisher + "-" + i, 2));
          }));
        }
        for (Thread publisher : publishers) publisher.join();
        long burstMillis = millisBetween(burstStart, System.nanoTime());
        for (int p = 0; p < 8; p++) {
          for (int i = 0; i < 25; i++)
            awaitConsumed(consumedAt, p + "-" + i, Duration.ofSeconds(5));
        }
        Thread.sleep(interval.toMillis() + 200); // the last NOTIFY of the burst
        int sent = listener.count() - before;
        assertThat(sent)
            .as("NOTIFYs for 200 publishes in %d ms at most one per %s", burstMillis, interval)
            .isBetween(1, (int) (burstMillis / interval.toMillis()) + 2);
      }
    }
  }

  private static long millisBetween(long fromNanos, long toNanos) {
    return TimeUnit.NANOSECONDS.toMillis(toNanos - fromNanos);
  }

  private static void awaitConsumed(Map<String, Long> consumedAt, String body, Duration bound)
      throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!consumedAt.containsKey(body)) {
      assertThat(System.nanoTime()).as("'%s' consumed within %s", body, bound).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  /** Counts the notifications that name one queue, on a connection of its own. */
  private static final class Listener implements AutoCloseable {
    private final Connection connection;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final String queue;
    private final Thread thread;
    private final CountDownLatch listening = new CountDownLatch(1);
    private volatile boolean running = true;

    Listener(Database database, String queue) throws Exception {
      this.queue = queue;
      this.connection = database.dataSource().getConnection();
      try (Statement statement = connection.createStatement()) {
        statement.execute("LISTEN " + MessageTable.CHANNEL);
      }
      this.thread = Thread.ofVirtual().start(this::run);
      listening.await();
    }

    private void run() {
      listening.countDown();
      try {
        PGConnection pg = connection.unwrap(PGConnection.class);
        while (running) {
          PGNotification[] notifications = pg.getNotifications(100);
          if (notifications == null) continue;
          for (PGNotification notification : notifications) {
            if (notification.getParameter().equals(queue))
              received.add(notification.getParameter());
          }
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    int count() {
      return received.size();
    }

    @Override
    public void close() throws Exception {
      running = false;
      thread.join();
      try (Statement statement = connection.createStatement()) {
        statement.execute("UNLISTEN *");
      }
      connection.close();
    }
  }
}
