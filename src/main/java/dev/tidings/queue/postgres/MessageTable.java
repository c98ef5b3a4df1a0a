package dev.tidings.queue.postgres;

import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * The SQL of the queue tables (V2__work_queue.sql). Every statement is its own short transaction;
 * none is open while a handler runs. Times come from the database's clock ({@code clock_timestamp()}),
 * never from the JVM's, so leases taken and checked by different nodes agree.
 */
final class MessageTable {
  static final String CHANNEL = "tidings_work_queue";

  private final Jdbi jdbi;

  MessageTable(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  void declare(QueueSpec spec) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO work_queue (name, max_priority, max_deliveries, visibility_timeout_ms)
            VALUES (:name, :maxPriority, :maxDeliveries, :visibilityMs)
            ON CONFLICT (name) DO UPDATE SET max_priority = EXCLUDED.max_priority,
              max_deliveries = EXCLUDED.max_deliveries, visibility_timeout_ms = EXCLUDED.visibility_timeout_ms
            """)
        .bind("name", spec.name())
        .bind("maxPriority", spec.maxPriority())
        .bind("maxDeliveries", spec.maxDeliveries())
        .bind("visibilityMs", spec.visibilityTimeout().toMillis())
        .execute());
  }

  Optional<QueueSpec> spec(String queue) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT name, max_priority, max_deliveries, visibility_timeout_ms FROM work_queue WHERE name = :name
            """)
        .bind("name", queue)
        .map((rs, ctx) -> new QueueSpec(
            rs.getString("name"),
            rs.getInt("max_priority"),
            rs.getInt("max_deliveries"),
            Duration.ofMillis(rs.getLong("visibility_timeout_ms"))))
        .findOne());
  }

  /** Inserts all messages in one transaction (a multi-row insert with reWriteBatchedInserts) and wakes listeners on commit. */
  void insert(QueueSpec spec, List<Message> messages) {
    jdbi.useTransaction(handle -> {
      var batch = handle.prepareBatch("""
          INSERT INTO work_queue_message (queue, priority, body, headers) VALUES (:queue, :priority, :body, CAST(:headers AS jsonb))
          """);
      for (Message message : messages) {
        batch
            .bind("queue", spec.name())
            .bind("priority", Math.min(message.priority(), spec.maxPriority()))
            .bind("body", message.body())
            .bind("headers", HeadersJson.write(message.headers()))
            .add();
      }
      batch.execute();
      // NOTIFY is delivered at commit, so a woken consumer always finds the rows.
      handle
          .createQuery("SELECT pg_notify(:channel, :queue)")
          .bind("channel", CHANNEL)
          .bind("queue", spec.name())
          .mapTo(String.class)
          .one();
    });
  }

  /** Leases up to {@code limit} visible messages, highest priority first, oldest first within one. */
  List<Claimed> claim(QueueSpec spec, int limit) {
    UUID token = UUID.randomUUID();
    List<Claimed> claimed = jdbi.inTransaction(handle -> handle
        .createQuery("""
            UPDATE work_queue_message m
               SET deliveries = m.deliveries + 1,
                   claim_token = :token,
                   visible_at = clock_timestamp() + :leaseMs * interval '1 millisecond'
             WHERE m.id IN (SELECT id FROM work_queue_message
                             WHERE queue = :queue AND visible_at <= clock_timestamp()
                             ORDER BY priority DESC, id
                             LIMIT :limit
                             FOR UPDATE SKIP LOCKED)
            RETURNING m.id, m.body, m.priority, m.deliveries, m.headers::text AS headers
            """)
        .bind("token", token)
        .bind("leaseMs", spec.visibilityTimeout().toMillis())
        .bind("queue", spec.name())
        .bind("limit", limit)
        .map((rs, ctx) -> new Claimed(
            rs.getLong("id"),
            token,
            rs.getBytes("body"),
            rs.getInt("priority"),
            rs.getInt("deliveries"),
            HeadersJson.read(rs.getString("headers"))))
        .list());
    // RETURNING has no order of its own.
    return claimed.stream()
        .sorted(
            Comparator.comparingInt(Claimed::priority).reversed().thenComparingLong(Claimed::id))
        .toList();
  }

  /** Extends the leases of messages whose handlers are still running; those no longer ours are left alone. */
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

  /** Deletes the message if our lease still holds; false when someone else took it meanwhile. */
  boolean delete(Claimed message) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("DELETE FROM work_queue_message WHERE id = :id AND claim_token = :token")
            .bind("id", message.id())
            .bind("token", message.token())
            .execute())
        == 1;
  }

  /** Makes the message visible again after {@code delay}, if our lease still holds. */
  boolean release(Claimed message, Duration delay) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("""
            UPDATE work_queue_message
               SET claim_token = NULL, visible_at = clock_timestamp() + :delayMs * interval '1 millisecond'
             WHERE id = :id AND claim_token = :token
            """)
            .bind("delayMs", delay.toMillis())
            .bind("id", message.id())
            .bind("token", message.token())
            .execute())
        == 1;
  }

  /** Moves the message to the dead letters in one statement, if our lease still holds. */
  boolean deadLetter(Claimed message, String reason) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("""
            WITH gone AS (
              DELETE FROM work_queue_message WHERE id = :id AND claim_token = :token
              RETURNING id, queue, priority, deliveries, body, headers)
            INSERT INTO work_queue_dead_letter (queue, message_id, priority, deliveries, reason, body, headers)
            SELECT queue, id::text, priority, deliveries, :reason, body, headers FROM gone
            """)
            .bind("id", message.id())
            .bind("token", message.token())
            .bind("reason", reason)
            .execute())
        == 1;
  }

  /** Messages not held by a live lease: waiting, retrying after a backoff, or left by a dead consumer. */
  long depth(String queue) {
    return jdbi.withHandle(
        handle -> handle.createQuery("""
            SELECT count(*) FROM work_queue_message
             WHERE queue = :queue AND (claim_token IS NULL OR visible_at <= clock_timestamp())
            """).bind("queue", queue).mapTo(Long.class).one());
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
