package dev.tidings.queue.postgres;

import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of the queue tables (V2__work_queue.sql, V4__work_queue_claims.sql,
 * V42__work_queue_delayed.sql). Every statement is its own short transaction; none is open while a
 * handler runs. Times come from the database's clock, never from the JVM's, so leases taken and
 * checked by different nodes agree; the one exception is a delayed message's not-before, which its
 * publisher gives, and which is then compared with the database's clock.
 *
 * <p>A message is waiting while {@code claim_token} is null and leased while it is set; claims,
 * renewals and settlements each handle any number of messages in one statement.
 */
final class MessageTable {
  static final String CHANNEL = "tidings_work_queue";

  /**
   * Leases the first {@code :limit} visible waiting messages by priority, then publish order. The rows
   * are chosen and locked in a CTE, computed once: as a subquery of the UPDATE ({@code WHERE id IN
   * (SELECT ... LIMIT n FOR UPDATE SKIP LOCKED)}), a concurrent update makes PostgreSQL recheck the
   * subquery, which can then lease more than {@code :limit} rows.
   */
  static final String CLAIM_BY_PRIORITY = """
      WITH chosen AS (
        SELECT id FROM work_queue_message
         WHERE queue = :queue AND claim_token IS NULL AND visible_at <= statement_timestamp()
         ORDER BY priority DESC, id
         LIMIT :limit
         FOR UPDATE SKIP LOCKED)
      UPDATE work_queue_message m
         SET deliveries = m.deliveries + 1,
             claim_token = :token,
             visible_at = clock_timestamp() + :leaseMs * interval '1 millisecond'
        FROM chosen
       WHERE m.id = chosen.id
      RETURNING m.id, m.body, m.priority, m.deliveries, m.headers::text AS headers,
                CASE WHEN m.deliveries = 1 AND m.not_before IS NOT NULL
                     THEN extract(epoch FROM clock_timestamp() - m.not_before) END AS late_seconds
      """;

  /**
   * As {@link #CLAIM_BY_PRIORITY}, but {@code :oldest} of the {@code :limit} messages are the oldest
   * waiting ones whatever their priority. The oldest are found by one short walk of the claim index
   * per priority (at most ten) rather than by a second index that every publish would have to fill.
   */
  static final String CLAIM_WITH_OLDEST = """
      WITH oldest AS (
        SELECT id, priority FROM work_queue_message
         WHERE id IN (SELECT candidate.id
                        FROM generate_series(0, :maxPriority) AS level(priority)
                        CROSS JOIN LATERAL (
                          SELECT id FROM work_queue_message
                           WHERE queue = :queue AND priority = level.priority AND claim_token IS NULL
                             AND visible_at <= statement_timestamp()
                           ORDER BY id
                           LIMIT :oldest) AS candidate
                       ORDER BY candidate.id
                       LIMIT :oldest)
           AND claim_token IS NULL
         FOR UPDATE SKIP LOCKED),
      first AS (
        SELECT id, priority FROM work_queue_message
         WHERE queue = :queue AND claim_token IS NULL AND visible_at <= statement_timestamp()
         ORDER BY priority DESC, id
         LIMIT :limit
         FOR UPDATE SKIP LOCKED),
      chosen AS MATERIALIZED (
        SELECT id FROM oldest
        UNION ALL
        (SELECT id FROM first WHERE id NOT IN (SELECT id FROM oldest)
          ORDER BY priority DESC, id
          LIMIT :limit - (SELECT count(*) FROM oldest)))
      UPDATE work_queue_message m
         SET deliveries = m.deliveries + 1,
             claim_token = :token,
             visible_at = clock_timestamp() + :leaseMs * interval '1 millisecond'
        FROM chosen
       WHERE m.id = chosen.id
      RETURNING m.id, m.body, m.priority, m.deliveries, m.headers::text AS headers,
                CASE WHEN m.deliveries = 1 AND m.not_before IS NOT NULL
                     THEN extract(epoch FROM clock_timestamp() - m.not_before) END AS late_seconds
      """;

  /**
   * Runs before each claim, in its transaction. It moves the due delayed messages of the queue (up to
   * {@code :promote}, the earliest due first) into the message table, where the claim that follows
   * sees them; each keeps its not-before as its enqueue time, so its age counts from when it became
   * due. It also tells how long until the next delayed message is due, so that an idle consumer sleeps
   * no longer than that.
   *
   * <p>And it makes the claim walk the claim index in order and stop after its limit, whatever the
   * statistics say. A queue table's contents swing from empty to millions of rows between two
   * ANALYZEs, and a queue declared since the last one is unknown to them: the planner then expects a
   * handful of waiting rows and chose to fetch every waiting row of the queue and sort them (30 ms for
   * 100 of 40,000, against 2 ms in index order).
   */
  static final String PROMOTE_DUE = """
      WITH due AS (
        DELETE FROM work_queue_delayed
         WHERE id IN (SELECT id FROM work_queue_delayed
                       WHERE queue = :queue AND not_before <= statement_timestamp()
                       ORDER BY not_before, id
                       LIMIT :promote
                       FOR UPDATE SKIP LOCKED)
        RETURNING id, queue, priority, not_before, body, headers),
      moved AS (
        INSERT INTO work_queue_message (queue, priority, enqueued_at, not_before, body, headers)
        SELECT queue, priority, not_before, not_before, body, headers FROM due ORDER BY not_before, id
        RETURNING 1)
      SELECT set_config('enable_seqscan', 'off', true) AS seqscan,
             set_config('enable_bitmapscan', 'off', true) AS bitmapscan,
             (SELECT count(*) FROM moved) AS promoted,
             (SELECT extract(epoch FROM min(not_before) - clock_timestamp())
                FROM work_queue_delayed
               WHERE queue = :queue AND not_before > statement_timestamp()) AS next_due_seconds
      """;

  /**
   * Delayed messages moved by one claim at most: a claim stays short when many come due at once, and
   * the next claims move the rest (see {@link Claim#nextDue()}).
   */
  static final int PROMOTE_LIMIT = 1_000;

  private final Jdbi jdbi;

  MessageTable(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** The queue's messages go with it (the foreign key cascades); its dead letters are deleted too. */
  void delete(String queue) {
    jdbi.useTransaction(handle -> {
      handle
          .createUpdate("DELETE FROM work_queue_dead_letter WHERE queue = :queue")
          .bind("queue", queue)
          .execute();
      handle
          .createUpdate("DELETE FROM work_queue WHERE name = :queue")
          .bind("queue", queue)
          .execute();
    });
  }

  void declare(QueueSpec spec) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO work_queue (name, max_priority, max_deliveries, visibility_timeout_ms,
                                    handler_timeout_ms, retry_initial_ms, retry_multiplier, retry_max_ms,
                                    oldest_every)
            VALUES (:name, :maxPriority, :maxDeliveries, :visibilityMs, :handlerMs, :retryInitialMs,
                    :retryMultiplier, :retryMaxMs, :oldestEvery)
            ON CONFLICT (name) DO UPDATE SET max_priority = EXCLUDED.max_priority,
              max_deliveries = EXCLUDED.max_deliveries,
              visibility_timeout_ms = EXCLUDED.visibility_timeout_ms,
              handler_timeout_ms = EXCLUDED.handler_timeout_ms,
              retry_initial_ms = EXCLUDED.retry_initial_ms,
              retry_multiplier = EXCLUDED.retry_multiplier,
              retry_max_ms = EXCLUDED.retry_max_ms,
              oldest_every = EXCLUDED.oldest_every
            """)
        .bind("name", spec.name())
        .bind("maxPriority", spec.maxPriority())
        .bind("maxDeliveries", spec.maxDeliveries())
        .bind("visibilityMs", spec.visibilityTimeout().toMillis())
        .bind("handlerMs", spec.handlerTimeout().toMillis())
        .bind("retryInitialMs", spec.retry().initialBackoff().toMillis())
        .bind("retryMultiplier", spec.retry().multiplier())
        .bind("retryMaxMs", spec.retry().maxBackoff().toMillis())
        .bind("oldestEvery", spec.oldestEvery())
        .execute());
  }

  Optional<QueueSpec> spec(String queue) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT name, max_priority, max_deliveries, visibility_timeout_ms, handler_timeout_ms,
                   retry_initial_ms, retry_multiplier, retry_max_ms, oldest_every
              FROM work_queue WHERE name = :name
            """)
        .bind("name", queue)
        .map((rs, ctx) -> new QueueSpec(
            rs.getString("name"),
            rs.getInt("max_priority"),
            rs.getInt("max_deliveries"),
            Duration.ofMillis(rs.getLong("visibility_timeout_ms")),
            Duration.ofMillis(rs.getLong("handler_timeout_ms")),
            new RetryPolicy(
                Duration.ofMillis(rs.getLong("retry_initial_ms")),
                rs.getDouble("retry_multiplier"),
                Duration.ofMillis(rs.getLong("retry_max_ms"))),
            rs.getInt("oldest_every")))
        .findOne());
  }

  /**
   * Inserts all messages in one transaction (a multi-row insert with reWriteBatchedInserts): those with
   * a not-before into the delayed messages, the others into the queue. With {@code notify}, the same
   * transaction wakes listeners on commit, for delayed messages too (an idle consumer then learns of
   * one due sooner than those it knew).
   */
  void insert(QueueSpec spec, List<Message> messages, boolean notify) {
    jdbi.useTransaction(handle -> {
      List<Message> now = messages.stream().filter(m -> m.notBefore() == null).toList();
      List<Message> later = messages.stream().filter(m -> m.notBefore() != null).toList();
      if (!now.isEmpty()) {
        var batch = handle.prepareBatch("""
            INSERT INTO work_queue_message (queue, priority, body, headers) VALUES (:queue, :priority, :body, CAST(:headers AS jsonb))
            """);
        for (Message message : now) {
          batch
              .bind("queue", spec.name())
              .bind("priority", Math.min(message.priority(), spec.maxPriority()))
              .bind("body", message.body())
              .bind("headers", HeadersJson.write(message.headers()))
              .add();
        }
        batch.execute();
      }
      if (!later.isEmpty()) {
        var batch = handle.prepareBatch("""
            INSERT INTO work_queue_delayed (queue, not_before, priority, body, headers) VALUES (:queue, :notBefore, :priority, :body, CAST(:headers AS jsonb))
            """);
        for (Message message : later) {
          batch
              .bind("queue", spec.name())
              .bind("notBefore", microsUp(Objects.requireNonNull(message.notBefore())))
              .bind("priority", Math.min(message.priority(), spec.maxPriority()))
              .bind("body", message.body())
              .bind("headers", HeadersJson.write(message.headers()))
              .add();
        }
        batch.execute();
      }
      // NOTIFY is delivered at commit, so a woken consumer always finds the rows.
      if (notify) {
        handle
            .createQuery("SELECT pg_notify(:channel, :queue)")
            .bind("channel", CHANNEL)
            .bind("queue", spec.name())
            .mapTo(String.class)
            .one();
      }
    });
  }

  /** {@code instant} in the database's precision, rounded up so that it is never earlier. */
  private static OffsetDateTime microsUp(Instant instant) {
    int belowMicros = instant.getNano() % 1_000;
    Instant up = belowMicros == 0 ? instant : instant.plusNanos(1_000 - belowMicros);
    return OffsetDateTime.ofInstant(up, ZoneOffset.UTC);
  }

  /** Wakes the listeners of every node for each of {@code queues}, in one transaction of its own. */
  void notify(Collection<String> queues) {
    jdbi.useHandle(handle -> handle
        .createQuery(
            "SELECT count(pg_notify(:channel, queue)) FROM unnest(CAST(:queues AS text[])) AS q(queue)")
        .bind("channel", CHANNEL)
        .bindArray("queues", String.class, List.copyOf(queues))
        .mapTo(Long.class)
        .one());
  }

  /**
   * What a claim leased, in priority order, and how soon its consumer should look again when that is
   * nothing: {@code nextDue} is the wait until the queue's next delayed message is due (zero when due
   * ones are still to be moved), empty when it has none.
   */
  record Claim(List<Claimed> claimed, Optional<Duration> nextDue) {
    static final Claim NONE = new Claim(List.of(), Optional.empty());
  }

  /**
   * Moves the queue's due delayed messages in, then leases up to {@code limit} visible messages,
   * highest priority first and oldest first within one, except that {@code oldest} of them (at most)
   * are the oldest waiting whatever their priority. All messages of one claim share its token.
   */
  Claim claim(QueueSpec spec, int limit, int oldest) {
    UUID token = UUID.randomUUID();
    boolean mixed = oldest > 0 && spec.maxPriority() > 0;
    var nextDue = new AtomicReference<Optional<Duration>>(Optional.empty());
    List<Claimed> claimed = jdbi.inTransaction(handle -> {
      nextDue.set(handle
          .createQuery(PROMOTE_DUE)
          .bind("queue", spec.name())
          .bind("promote", PROMOTE_LIMIT)
          .map((rs, ctx) -> {
            if (rs.getLong("promoted") >= PROMOTE_LIMIT) return Optional.of(Duration.ZERO);
            double seconds = rs.getDouble("next_due_seconds");
            if (rs.wasNull()) return Optional.<Duration>empty();
            return Optional.of(Duration.ofNanos(Math.max(0, (long) Math.ceil(seconds * 1e9))));
          })
          .one());
      var query = handle
          .createQuery(mixed ? CLAIM_WITH_OLDEST : CLAIM_BY_PRIORITY)
          .bind("token", token)
          .bind("leaseMs", spec.visibilityTimeout().toMillis())
          .bind("queue", spec.name())
          .bind("limit", limit);
      if (mixed)
        query.bind("oldest", Math.min(oldest, limit)).bind("maxPriority", spec.maxPriority());
      return query
          .map((rs, ctx) -> new Claimed(
              rs.getLong("id"),
              token,
              rs.getBytes("body"),
              rs.getInt("priority"),
              rs.getInt("deliveries"),
              HeadersJson.read(rs.getString("headers")),
              lateness(rs.getDouble("late_seconds"), rs.wasNull())))
          .list();
    });
    // RETURNING has no order of its own.
    return new Claim(
        claimed.stream()
            .sorted(Comparator.comparingInt(Claimed::priority)
                .reversed()
                .thenComparingLong(Claimed::id))
            .toList(),
        nextDue.get());
  }

  private static @Nullable Duration lateness(double seconds, boolean absent) {
    return absent ? null : Duration.ofNanos((long) (seconds * 1e9));
  }

  /**
   * Extends the leases of messages whose handlers are still running; those no longer ours are left
   * alone. Only visible_at changes, which no index holds: a HOT update.
   */
  void renew(QueueSpec spec, Collection<Claimed> held) {
    if (held.isEmpty()) return;
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            UPDATE work_queue_message m
               SET visible_at = clock_timestamp() + :leaseMs * interval '1 millisecond'
              FROM unnest(CAST(:ids AS bigint[]), CAST(:tokens AS uuid[])) AS held(id, token)
             WHERE m.id = held.id AND m.claim_token = held.token
            """)
        .bind("leaseMs", spec.visibilityTimeout().toMillis())
        .bindArray("ids", Long.class, held.stream().map(Claimed::id).toList())
        .bindArray(
            "tokens",
            String.class,
            held.stream().map(message -> message.token().toString()).toList())
        .execute());
  }

  /**
   * Ends every lease of every queue now; how many there were. A message with deliveries left waits
   * again at once; one at its last delivery keeps its claim with its lease run out, so the next round
   * of {@link #releaseExpired} dead-letters it as it would any consumer's that died.
   */
  int endEveryLease() {
    return jdbi.withHandle(handle -> handle.createUpdate("""
            UPDATE work_queue_message m
               SET claim_token = CASE WHEN m.deliveries < q.max_deliveries THEN NULL ELSE m.claim_token END,
                   visible_at = clock_timestamp()
              FROM work_queue q
             WHERE q.name = m.queue AND m.claim_token IS NOT NULL
            """).execute());
  }

  /** What became of expired leases: dead-lettered at their last delivery, or waiting again. */
  record Expired(int deadLettered, int returned) {}

  /**
   * Takes back the messages whose lease ran out (their consumer died or stalled past the visibility
   * timeout). That delivery counts: a message that used its last one is dead-lettered instead of
   * being handed to yet another consumer; the others wait again, at once.
   */
  Expired releaseExpired(QueueSpec spec) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            WITH expired AS (
              SELECT id, deliveries FROM work_queue_message
               WHERE queue = :queue AND claim_token IS NOT NULL AND visible_at <= clock_timestamp()
               FOR UPDATE SKIP LOCKED),
            gone AS (
              DELETE FROM work_queue_message m USING expired e
               WHERE m.id = e.id AND e.deliveries >= :maxDeliveries
              RETURNING m.id, m.queue, m.priority, m.deliveries, m.body, m.headers),
            buried AS (
              INSERT INTO work_queue_dead_letter (queue, message_id, priority, deliveries, reason, body, headers)
              SELECT queue, id::text, priority, deliveries,
                     'delivered ' || deliveries || ' times (max deliveries ' || :maxDeliveries
                       || '), the last time to a consumer that stopped before settling it',
                     body, headers
                FROM gone
              RETURNING 1),
            back AS (
              UPDATE work_queue_message m SET claim_token = NULL, visible_at = clock_timestamp()
                FROM expired e
               WHERE m.id = e.id AND e.deliveries < :maxDeliveries
              RETURNING 1)
            SELECT (SELECT count(*) FROM buried) AS dead, (SELECT count(*) FROM back) AS back
            """)
        .bind("queue", spec.name())
        .bind("maxDeliveries", spec.maxDeliveries())
        .map((rs, ctx) -> new Expired(rs.getInt("dead"), rs.getInt("back")))
        .one());
  }

  /**
   * Settles every message of {@code settlement} in one statement: acknowledged ones deleted, retried
   * ones waiting again after their backoff, given-up ones moved to the dead letters. Only messages
   * whose lease is still ours are touched; returns the ids that were.
   */
  Set<Long> settle(Settlement settlement) {
    if (settlement.isEmpty()) return Set.of();
    List<Long> settled = jdbi.withHandle(handle -> {
      var query = handle
          .createQuery(settlement.onlyAcks() ? DELETE_ACKED : SETTLE)
          .bindArray("ids", Long.class, settlement.ids())
          .bindArray("tokens", String.class, settlement.tokens());
      if (!settlement.onlyAcks()) {
        query
            .bindArray("kinds", String.class, settlement.kinds())
            .bindArray("delays", Long.class, settlement.delaysMillis())
            .bindArray("reasons", String.class, settlement.reasons());
      }
      return query.mapTo(Long.class).list();
    });
    return new HashSet<>(settled);
  }

  private static final String DELETE_ACKED = """
      DELETE FROM work_queue_message m
       USING unnest(CAST(:ids AS bigint[]), CAST(:tokens AS uuid[])) AS s(id, token)
       WHERE m.id = s.id AND m.claim_token = s.token
      RETURNING m.id
      """;

  private static final String SETTLE = """
      WITH s AS (
        SELECT * FROM unnest(CAST(:ids AS bigint[]), CAST(:tokens AS uuid[]), CAST(:kinds AS text[]),
                             CAST(:delays AS bigint[]), CAST(:reasons AS text[]))
                 AS s(id, token, kind, delay_ms, reason)),
      acked AS (
        DELETE FROM work_queue_message m USING s
         WHERE s.kind = 'ack' AND m.id = s.id AND m.claim_token = s.token
        RETURNING m.id),
      gone AS (
        DELETE FROM work_queue_message m USING s
         WHERE s.kind = 'dead' AND m.id = s.id AND m.claim_token = s.token
        RETURNING m.id, m.queue, m.priority, m.deliveries, m.body, m.headers, s.reason),
      buried AS (
        INSERT INTO work_queue_dead_letter (queue, message_id, priority, deliveries, reason, body, headers)
        SELECT queue, id::text, priority, deliveries, reason, body, headers FROM gone ORDER BY id
        RETURNING 1), -- runs although nothing reads it, as every data-modifying WITH does
      retried AS (
        UPDATE work_queue_message m
           SET claim_token = NULL, visible_at = clock_timestamp() + s.delay_ms * interval '1 millisecond'
          FROM s
         WHERE s.kind = 'retry' AND m.id = s.id AND m.claim_token = s.token
        RETURNING m.id)
      SELECT id FROM acked
      UNION ALL SELECT id FROM gone
      UNION ALL SELECT id FROM retried
      """;

  /**
   * Messages not held by a live lease: waiting, retrying after a backoff, or left by a dead consumer,
   * and the delayed ones that are due but not moved in yet (no consumer claimed since).
   */
  long depth(String queue) {
    return jdbi.withHandle(
        handle -> handle.createQuery("""
            SELECT (SELECT count(*) FROM work_queue_message
                     WHERE queue = :queue AND (claim_token IS NULL OR visible_at <= clock_timestamp()))
                 + (SELECT count(*) FROM work_queue_delayed
                     WHERE queue = :queue AND not_before <= clock_timestamp())
            """).bind("queue", queue).mapTo(Long.class).one());
  }

  /** Delayed messages whose not-before has not come. */
  long delayed(String queue) {
    return jdbi.withHandle(
        handle -> handle.createQuery("""
            SELECT count(*) FROM work_queue_delayed
             WHERE queue = :queue AND not_before > clock_timestamp()
            """).bind("queue", queue).mapTo(Long.class).one());
  }

  /**
   * Age of the oldest message of the queue, from the oldest of each priority: ids grow with
   * enqueueing, so each priority's first row by the queue's index is its oldest, and no scan of the
   * queue is needed however deep it is. A delayed message counts from its not-before: moved in, it
   * carries it as its enqueue time (moved later than that, it can be younger than a row before it,
   * so the age can be short by how long it waited to be moved); not moved in yet, the earliest due
   * one is read from the delayed messages' index.
   */
  Duration oldestAge(String queue) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT greatest(
                     coalesce(extract(epoch FROM clock_timestamp() - min(m.enqueued_at)), 0),
                     coalesce((SELECT extract(epoch FROM clock_timestamp() - min(not_before))
                                 FROM work_queue_delayed
                                WHERE queue = :queue AND not_before <= clock_timestamp()), 0))
              FROM generate_series(0, :top) AS p(priority)
              CROSS JOIN LATERAL (
                SELECT enqueued_at FROM work_queue_message
                 WHERE queue = :queue AND priority = p.priority ORDER BY id LIMIT 1) m
            """)
        .bind("queue", queue)
        .bind("top", QueueSpec.MAX_PRIORITY)
        .mapTo(Double.class)
        .findOne()
        .map(seconds -> Duration.ofNanos(Math.max(0, (long) (seconds * 1e9))))
        .orElse(Duration.ZERO));
  }

  /** Moves one dead letter back into its queue as a fresh message, waking its consumers; false when none. */
  boolean requeueDeadLetter(String queue, String messageId) {
    return jdbi.inTransaction(handle -> {
      int moved = handle
          .createUpdate("""
              WITH gone AS (
                DELETE FROM work_queue_dead_letter
                 WHERE id = (SELECT id FROM work_queue_dead_letter
                              WHERE queue = :queue AND message_id = :message
                              ORDER BY id DESC LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING queue, priority, body, headers)
              INSERT INTO work_queue_message (queue, priority, body, headers)
              SELECT queue, priority, body, headers FROM gone
              """)
          .bind("queue", queue)
          .bind("message", messageId)
          .execute();
      if (moved > 0)
        handle
            .createQuery("SELECT pg_notify(:channel, :queue)")
            .bind("channel", CHANNEL)
            .bind("queue", queue)
            .mapTo(String.class)
            .one();
      return moved > 0;
    });
  }

  boolean dropDeadLetter(String queue, String messageId) {
    return jdbi.withHandle(handle -> handle
            .createUpdate(
                "DELETE FROM work_queue_dead_letter WHERE queue = :queue AND message_id = :message")
            .bind("queue", queue)
            .bind("message", messageId)
            .execute()
        > 0);
  }

  List<DeadLetter> deadLetters(String queue, int limit) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT message_id, body, priority, deliveries, reason, dead_at, headers::text AS headers
              FROM work_queue_dead_letter WHERE queue = :queue ORDER BY id DESC LIMIT :limit
            """)
        .bind("queue", queue)
        .bind("limit", limit)
        .map((rs, ctx) -> new DeadLetter(
            rs.getString("message_id"),
            rs.getBytes("body"),
            rs.getInt("priority"),
            rs.getInt("deliveries"),
            rs.getString("reason"),
            rs.getTimestamp("dead_at").toInstant(),
            HeadersJson.read(rs.getString("headers"))))
        .list());
  }
}
