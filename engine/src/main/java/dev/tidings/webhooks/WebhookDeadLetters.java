package dev.tidings.webhooks;

import dev.tidings.queue.WorkQueue;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Deliveries that failed every attempt, kept until an operator replays them (after fixing the
 * receiver) or they are dropped with their endpoint. A row holds the event as it was sent and the last
 * error, never a secret or a signature: a replay is signed anew with the secrets live then.
 */
public final class WebhookDeadLetters {
  private final Jdbi jdbi;
  private final WorkQueue queue;
  private final InstantSource clock;

  public WebhookDeadLetters(Jdbi jdbi, WorkQueue queue, InstantSource clock) {
    this.jdbi = jdbi;
    this.queue = queue;
    this.clock = clock;
  }

  /** One dead letter as the System page lists it. */
  public record DeadLetter(
      long id,
      String endpointId,
      String eventId,
      String eventType,
      int attempts,
      String lastError,
      Instant deadAt) {}

  void add(WebhookDelivery delivery, String lastError) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO webhook_dead_letters
              (endpoint_id, event_id, event_type, body, attempts, last_error, dead_at)
            VALUES (:endpoint, :event, :type, :body, :attempts, :error, :now)""")
        .bind("endpoint", delivery.endpointId())
        .bind("event", delivery.eventId())
        .bind("type", delivery.eventType())
        .bind("body", delivery.body())
        .bind("attempts", delivery.attempt())
        .bind("error", lastError.length() > 500 ? lastError.substring(0, 500) : lastError)
        .bind("now", Timestamp.from(clock.instant()))
        .execute());
  }

  /** The newest first, at most {@code limit}. */
  public List<DeadLetter> recent(int limit) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT id, endpoint_id, event_id, event_type, attempts, last_error, dead_at
            FROM webhook_dead_letters ORDER BY id DESC LIMIT :limit""")
        .bind("limit", limit)
        .map((rs, ctx) -> new DeadLetter(
            rs.getLong("id"),
            rs.getString("endpoint_id"),
            rs.getString("event_id"),
            rs.getString("event_type"),
            rs.getInt("attempts"),
            rs.getString("last_error"),
            rs.getTimestamp("dead_at").toInstant()))
        .list());
  }

  public long count() {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT count(*) FROM webhook_dead_letters")
        .mapTo(Long.class)
        .one());
  }

  /**
   * Queues dead letter {@code id} again as a first attempt and removes it, in one transaction: a
   * publish that fails leaves it in place. Empty when there is no such dead letter (replayed already).
   */
  public Optional<WebhookDelivery> replay(long id) {
    return jdbi.inTransaction(handle -> handle
        .createQuery("""
            DELETE FROM webhook_dead_letters WHERE id = :id
            RETURNING endpoint_id, event_id, event_type, body""")
        .bind("id", id)
        .map((rs, ctx) -> new WebhookDelivery(
            rs.getString("endpoint_id"),
            rs.getString("event_id"),
            rs.getString("event_type"),
            rs.getString("body"),
            1))
        .findOne()
        .map(delivery -> {
          WebhookDelivery.TOPIC.publish(queue, delivery, WebhookSender.PRIORITY);
          return delivery;
        }));
  }

  /** Replays every dead letter of {@code endpointId}; answers how many. */
  public int replayAll(String endpointId) {
    List<Long> ids = jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT id FROM webhook_dead_letters WHERE endpoint_id = :endpoint ORDER BY id")
        .bind("endpoint", endpointId)
        .mapTo(Long.class)
        .list());
    int replayed = 0;
    for (long id : ids) if (replay(id).isPresent()) replayed++;
    return replayed;
  }

  /** Drops the dead letters of a deleted endpoint: nothing could deliver them. */
  public int dropFor(String endpointId) {
    return jdbi.withHandle(handle -> handle
        .createUpdate("DELETE FROM webhook_dead_letters WHERE endpoint_id = :endpoint")
        .bind("endpoint", endpointId)
        .execute());
  }
}
