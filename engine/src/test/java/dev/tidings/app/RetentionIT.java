package dev.tidings.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.config.SettingsLoader;
import dev.tidings.retention.Retention;
import dev.tidings.testing.RealServers;
import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Retention on the real PostgreSQL, through the node's own wiring: every table that grows with
 * traffic loses exactly its rows older than their lifetime, the campaign totals and the funnel stay,
 * and removing a backlog of old messages while a campaign sends leaves the campaign to complete.
 */
@Timeout(180)
class RetentionIT {
  private String database;
  private Node node;

  @BeforeEach
  void open() throws Exception {
    database = "tidings_retention_" + UUID.randomUUID().toString().substring(0, 8);
    String url = RealServers.createDatabase(database);
    node = Node.of(SettingsLoader.load(Map.of(
        "TIDINGS_DB_URL",
        url,
        "TIDINGS_DATA_DIR",
        Files.createTempDirectory("tidings-retention").toString(),
        "TIDINGS_RETENTION_BATCH",
        "200")));
  }

  @AfterEach
  void close() throws Exception {
    if (node != null) node.close();
    RealServers.dropDatabase(database);
  }

  private Jdbi jdbi() {
    return node.infrastructure().database().jdbi();
  }

  private long count(String sql) {
    return jdbi().withHandle(handle -> handle.createQuery(sql).mapTo(Long.class).one());
  }

  /**
   * Rows of every table, {@code n} of each age: old ones past the defaults (180 days for an email's
   * records, 400 for events, 30 for dead letters), fresh ones within them.
   */
  private static void seed(Handle handle, String age, String prefix, int n, String eventAge) {
    String at = "now() - interval '" + age + "'";
    handle.execute("INSERT INTO message_status (message_id, campaign_id, subscriber_id, status,"
        + " status_at, sent_at) SELECT '" + prefix + "-' || i, 9001, 's' || i, 50, " + at + ", "
        + at
        + " FROM generate_series(1, " + n + ") i");
    handle.execute("INSERT INTO message_steps (message_id, step, campaign_id, first_at, source)"
        + " SELECT '" + prefix + "-' || i, st, 9001, " + at + ", 'SMTP'"
        + " FROM generate_series(1, " + n + ") i, unnest(ARRAY[30, 50]) st");
    handle.execute("INSERT INTO slot_clicks (message_id, slot, campaign_id, first_at)" + " SELECT '"
        + prefix + "-' || i, 0, 9001, " + at + " FROM generate_series(1, " + n + ") i");
    handle.execute("INSERT INTO message_slots (message_id, subscriber_id, campaign_id, product_ids,"
        + " chosen_at) SELECT '" + prefix + "-' || i, 's' || i, 9001, ARRAY['p1'], " + at
        + " FROM generate_series(1, " + n + ") i");
    handle.execute("INSERT INTO experiment_sends (message_id, campaign_id, subscriber_id, variant,"
        + " sent_at) SELECT '" + prefix + "-' || i, 9001, 's' || i, 0, " + at
        + " FROM generate_series(1, " + n + ") i");
    handle.execute("INSERT INTO digests_sent (campaign_id, run_id, subscriber_id, sent_at,"
        + " content_ids) SELECT 9001, 1, '" + prefix + "-' || i, " + at + ", ARRAY['c1']"
        + " FROM generate_series(1, " + n + ") i");
    handle.execute("INSERT INTO activity_events (user_id, type, item_id, occurred_at, received_at)"
        + " SELECT 'u' || i, 'view', 'p1', now() - interval '" + eventAge + "', now()"
        + " FROM generate_series(1, " + n + ") i");
    handle.execute("INSERT INTO work_queue_dead_letter (queue, message_id, priority, deliveries,"
        + " reason, dead_at, body) SELECT 'q', '" + prefix + "-' || i, 0, 5, 'poison', now() -"
        + " interval '" + eventAge + "', '\\x00' FROM generate_series(1, " + n + ") i");
  }

  @Test
  void every_table_loses_exactly_its_expired_rows_and_the_totals_stay() {
    jdbi().useHandle(handle -> {
      seed(handle, "200 days", "old", 450, "500 days");
      seed(handle, "10 days", "fresh", 30, "20 days");
      // counted: off the backlog; one old event still waits to be counted and must stay
      handle.execute("DELETE FROM aggregation_backlog WHERE seq <> (SELECT min(seq) FROM"
          + " activity_events)");
      handle.execute("INSERT INTO campaign_funnel (campaign_id, step, shard, count)"
          + " VALUES (9001, 30, 0, 480), (9001, 50, 0, 480)");
      handle.execute("INSERT INTO campaign_funnel_minutes (campaign_id, step, minute, shard, count)"
          + " VALUES (9001, 30, date_trunc('minute', now() - interval '200 days'), 0, 450)");
      handle.execute("INSERT INTO experiment_counts (campaign_id, variant, sent, human_opened)"
          + " VALUES (9001, 0, 480, 12)");
      // a bulk run finished long ago, one finished lately, and a run of triggered sends
      handle.execute("INSERT INTO send_run (campaign_id, run_id, state, priority, rate_per_sec,"
          + " bulk, partitions, planned, sent, started_at, finished_at) VALUES"
          + " (1, 1, 'COMPLETED', 4, 100, true, 2, 450, 450, now() - interval '201 days',"
          + "  now() - interval '200 days'),"
          + " (2, 2, 'COMPLETED', 4, 100, true, 1, 30, 30, now() - interval '11 days',"
          + "  now() - interval '10 days'),"
          + " (3, 3, 'RUNNING', 9, 100, false, 0, 5, 5, now() - interval '300 days', NULL)");
      handle.execute("INSERT INTO send_partition (campaign_id, run_id, part, finished) VALUES"
          + " (1, 1, 0, true), (1, 1, 1, true), (2, 2, 0, true)");
      handle.execute("INSERT INTO send_recipient (campaign_id, run_id, subscriber_id, part, state,"
          + " updated_at) SELECT 1, 1, 's' || i, i % 2, 'sent', now() - interval '200 days'"
          + " FROM generate_series(1, 450) i");
      handle.execute("INSERT INTO send_recipient (campaign_id, run_id, subscriber_id, part, state,"
          + " updated_at) SELECT 2, 2, 's' || i, 0, 'sent', now() - interval '10 days'"
          + " FROM generate_series(1, 30) i");
      handle.execute("INSERT INTO send_recipient (campaign_id, run_id, subscriber_id, part, state,"
          + " updated_at) SELECT 3, 3, 's' || i, -1, 'sent', now() - interval '300 days'"
          + " FROM generate_series(1, 5) i");
      // day partitions: one long past its lifetime and one fresh, of each partitioned table
      for (String table :
          new String[] {"aggregate_days", "aggregate_people", "notification_buckets"})
        for (int daysAgo : new int[] {200, 1}) {
          var day = LocalDate.now(ZoneOffset.UTC).minusDays(daysAgo);
          handle.execute("CREATE TABLE " + table + "_" + day.toString().replace("-", "")
              + " PARTITION OF " + table + " FOR VALUES FROM ('" + day + "') TO ('"
              + day.plusDays(1) + "')");
          String rows = " FROM generate_series(1, 7) i";
          switch (table) {
            case "aggregate_days" ->
              handle.execute("INSERT INTO aggregate_days (hash_key, day,"
                  + " value) SELECT 'k' || i, DATE '" + day + "', 1" + rows);
            case "aggregate_people" ->
              handle.execute("INSERT INTO aggregate_people (day, hash_key,"
                  + " user_id) SELECT DATE '" + day + "', 'k', 'u' || i" + rows);
            default ->
              handle.execute("INSERT INTO notification_buckets (day, subscriber_id,"
                  + " events) SELECT DATE '" + day + "', 's' || i, ARRAY['product:p1']" + rows);
          }
        }
    });

    Retention.Run run = node.retention().runOnce();

    assertThat(run.failed()).isEmpty();
    assertThat(run.removed())
        .containsEntry("message_status", 450L)
        .containsEntry("message_slots", 450L)
        .containsEntry("experiment_sends", 450L)
        .containsEntry("digests_sent", 450L)
        .containsEntry("send_recipient", 450L)
        .containsEntry("activity_events", 449L)
        .containsEntry("work_queue_dead_letter", 450L)
        .as("day partitions are dropped whole, their rows counted")
        .containsEntry("aggregate_days", 7L)
        .containsEntry("notification_buckets", 7L);
    for (String table :
        new String[] {"aggregate_days", "aggregate_people", "notification_buckets"}) {
      assertThat(count("SELECT count(*) FROM " + table)).as(table).isEqualTo(7);
      assertThat(
              count("SELECT count(*) FROM pg_inherits WHERE inhparent = '" + table + "'::regclass"))
          .as("partitions of " + table)
          .isEqualTo(1);
    }
    for (String table : new String[] {
      "message_status",
      "message_slots",
      "experiment_sends",
      "digests_sent",
      "work_queue_dead_letter"
    }) assertThat(count("SELECT count(*) FROM " + table)).as(table).isEqualTo(30);
    assertThat(count("SELECT count(*) FROM message_steps")).isEqualTo(60);
    assertThat(count("SELECT count(*) FROM slot_clicks")).isEqualTo(30);
    assertThat(count("SELECT count(*) FROM message_steps WHERE message_id LIKE 'old-%'"))
        .isZero();
    assertThat(count("SELECT count(*) FROM activity_events"))
        .as("fresh and one uncounted")
        .isEqualTo(31);
    assertThat(count("SELECT count(*) FROM send_recipient WHERE run_id = 1")).isZero();
    assertThat(count("SELECT count(*) FROM send_partition WHERE run_id = 1")).isZero();
    assertThat(count("SELECT count(*) FROM send_recipient WHERE run_id = 2")).isEqualTo(30);
    assertThat(count("SELECT count(*) FROM send_recipient WHERE run_id = 3"))
        .as("triggered sends keep the rows that stop a second one")
        .isEqualTo(5);
    // kept for good
    assertThat(count("SELECT sum(count) FROM campaign_funnel")).isEqualTo(960);
    assertThat(count("SELECT sum(count) FROM campaign_funnel_minutes")).isEqualTo(450);
    assertThat(count("SELECT sum(human_opened) FROM experiment_counts")).isEqualTo(12);
    assertThat(count("SELECT sum(sent) FROM send_run")).isEqualTo(485);
    assertThat(node.infrastructure()
            .metrics()
            .get(Retention.REMOVED)
            .tag("table", "message_status")
            .counter()
            .count())
        .isEqualTo(450.0);
    assertThat(node.infrastructure().metrics().scrape())
        .contains("tidings_retention_rows_removed_total{table=\"activity_events\"} 449.0")
        .contains("tidings_retention_last_run_timestamp_seconds");

    assertThat(node.retention().runOnce().total()).as("nothing left to remove").isZero();
  }

  @Test
  void removing_old_messages_while_a_campaign_sends_leaves_it_to_complete() throws Exception {
    int old = 20_000;
    int audience = 300;
    jdbi().useHandle(handle -> {
      seed(handle, "200 days", "old", old, "500 days");
      handle.execute("INSERT INTO subscribers (id, email, name, created_at, updated_at)"
          + " SELECT 'r' || i, 'r' || i || '@example.com', 'Reader ' || i, now(), now()"
          + " FROM generate_series(1, " + audience + ") i");
    });
    node.start(Role.DEMO, 0);
    var campaigns = node.capability(CampaignWiring.class).campaigns();
    long id = campaigns.create(CampaignJson.fromJson(Json.MAPPER.readTree("""
            {"name": "While removing", "from": {"email": "news@shop.example"},
             "subject": "Hello {{subscriber.firstName}}", "html": "<p>Hello</p>",
             "text": "Hello", "ratePerSecond": 150}"""))).id();

    var removed = new AtomicLong();
    var failure = new AtomicReference<Throwable>();
    Thread remover = Thread.ofPlatform().start(() -> {
      try {
        var retention = node.retention();
        Retention.Run run;
        do {
          run = retention.runOnce();
          if (!run.failed().isEmpty())
            throw new AssertionError("retention failed on " + run.failed());
          removed.addAndGet(run.total());
        } while (run.total() > 0);
      } catch (Throwable e) {
        failure.set(e);
      }
    });
    campaigns.send(id);

    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    String state = "";
    while (System.nanoTime() < deadline) {
      state = jdbi()
          .withHandle(handle -> handle
              .createQuery("SELECT state FROM send_run WHERE campaign_id = :id AND bulk")
              .bind("id", id)
              .mapTo(String.class)
              .findOne()
              .orElse(""));
      long applied = count("SELECT count(*) FROM message_status WHERE campaign_id = " + id);
      if (state.startsWith("COMPLETED") && applied == audience) break;
      Thread.sleep(100);
    }
    remover.join(Duration.ofSeconds(60));

    assertThat(failure.get()).isNull();
    assertThat(state).isEqualTo("COMPLETED");
    assertThat(count("SELECT sent FROM send_run WHERE campaign_id = " + id)).isEqualTo(audience);
    assertThat(count("SELECT count(*) FROM message_status WHERE campaign_id = " + id))
        .isEqualTo(audience);
    assertThat(count("SELECT coalesce(sum(count), 0) FROM campaign_funnel WHERE campaign_id = " + id
            + " AND step = 30"))
        .as("every email sent is in the funnel")
        .isEqualTo(audience);
    assertThat(removed.get()).isGreaterThanOrEqualTo(old);
    assertThat(count("SELECT count(*) FROM message_status WHERE message_id LIKE 'old-%'"))
        .isZero();
    assertThat(count("SELECT count(*) FROM message_steps WHERE message_id LIKE 'old-%'"))
        .isZero();
  }
}
