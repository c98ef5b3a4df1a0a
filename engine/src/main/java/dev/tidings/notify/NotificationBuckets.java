package dev.tidings.notify;

import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.GeoPoint;
import dev.tidings.audience.SubscriberSql;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * The SQL of {@code notification_buckets}: one row per subscriber and day holding that day's events in
 * order ({@code kind:content}) and how many of them a digest has sent. A fan-out is one statement,
 * streamed from the followers' index inside the database, so neither the node's memory nor its time
 * grows with a round trip per follower; appending an event the bucket holds already changes nothing,
 * so publishing twice in a day tells nobody twice. Every fan-out writes its buckets in subscriber order
 * and is its transaction's only one, so fan-outs racing over the same followers wait, never deadlock.
 */
final class NotificationBuckets {
  private static final String APPEND = """
      INSERT INTO notification_buckets (day, subscriber_id, events)
      SELECT :day, subscriber_id, events FROM (%s) AS audience
      ON CONFLICT (subscriber_id, day) DO UPDATE
        SET events = notification_buckets.events
                     || ARRAY(SELECT e FROM unnest(excluded.events) AS e
                               WHERE e <> ALL (notification_buckets.events))
        WHERE NOT notification_buckets.events @> excluded.events""";

  private NotificationBuckets() {}

  static String event(NotificationKind kind, String contentId) {
    return kind.wire() + ":" + contentId;
  }

  /** Appends the event to the bucket of every follower of any owner; returns how many got it. */
  static long toFollowers(Handle handle, LocalDate day, Content content) {
    return toFollowers(handle, day, content.owners(), List.of(content.id()));
  }

  /**
   * Appends the events of several pieces with the same owners (a brand's new products of one import) to
   * the bucket of every follower in one statement: one pass over the followers however many pieces.
   */
  static long toFollowers(
      Handle handle, LocalDate day, List<FollowTarget> owners, List<String> contentIds) {
    if (owners.isEmpty() || contentIds.isEmpty()) return 0;
    return handle
        .createUpdate(APPEND.formatted("""
            SELECT subscriber_id, :events::text[] AS events FROM (
              SELECT DISTINCT f.subscriber_id FROM %s
                JOIN unnest(:types::text[], :ids::text[]) AS o (type, id)
                  ON f.target_type = o.type AND f.target_id = o.id) AS followers
             ORDER BY subscriber_id""".formatted(SubscriberSql.followers("f"))))
        .bind("day", day)
        .bindArray(
            "events",
            String.class,
            contentIds.stream().map(id -> event(NotificationKind.FOLLOWED, id)).toList())
        .bindArray(
            "types", String.class, owners.stream().map(o -> o.type().wire()).toList())
        .bindArray("ids", String.class, owners.stream().map(FollowTarget::id).toList())
        .execute();
  }

  /**
   * Appends the event to the bucket of every subscriber within the content's radius, as the audience
   * finds them ({@link SubscriberSql#within}: its position index, then the great-circle distance).
   */
  static long toNearby(Handle handle, LocalDate day, Content content, GeoPoint at) {
    return handle
        .createUpdate(APPEND.formatted("""
            SELECT n.subscriber_id, :events::text[] AS events FROM %s
             ORDER BY n.subscriber_id""".formatted(SubscriberSql.within("n", "at_"))))
        .bind("day", day)
        .bindArray("events", String.class, List.of(event(NotificationKind.NEARBY, content.id())))
        .bind("at_lat", at.latitude())
        .bind("at_lon", at.longitude())
        .bind("at_km", content.radiusKm())
        .execute();
  }

  /**
   * Appends each product's event to the buckets of its brand's followers, all brands in one statement:
   * a follower of several gets one write with all of theirs.
   */
  static long toBrandFollowers(
      Handle handle, LocalDate day, List<String> brands, List<String> contentIds) {
    if (contentIds.isEmpty()) return 0;
    return handle
        .createUpdate(APPEND.formatted("""
            SELECT f.subscriber_id, array_agg(DISTINCT n.event) AS events FROM %s
              JOIN unnest(:brands::text[], :events::text[]) AS n (brand, event)
                ON f.target_type = 'brand' AND f.target_id = n.brand
             GROUP BY f.subscriber_id ORDER BY f.subscriber_id""".formatted(SubscriberSql.followers("f"))))
        .bind("day", day)
        .bindArray("brands", String.class, brands)
        .bindArray(
            "events",
            String.class,
            contentIds.stream().map(id -> event(NotificationKind.FOLLOWED, id)).toList())
        .execute();
  }

  /** One subscriber's bucket of one day. */
  record Bucket(LocalDate day, List<String> events, int flushed) {}

  /** The subscriber's buckets from {@code from} to {@code to}, oldest first. */
  static List<Bucket> of(Handle handle, String subscriberId, LocalDate from, LocalDate to) {
    return handle
        .createQuery("""
            SELECT day, events, flushed FROM notification_buckets
             WHERE subscriber_id = :subscriber AND day BETWEEN :from AND :to ORDER BY day""")
        .bind("subscriber", subscriberId)
        .bind("from", from)
        .bind("to", to)
        .map((rows, context) -> new Bucket(
            rows.getObject("day", LocalDate.class),
            List.of((String[]) rows.getArray("events").getArray()),
            rows.getInt("flushed")))
        .list();
  }

  /**
   * Marks each day's events up to the given position as sent; a marker never moves back, so a late or
   * repeated flush changes nothing, and events appended after the digest was read stay after it.
   */
  static void flush(Handle handle, String subscriberId, Map<LocalDate, Integer> positions) {
    var batch = handle.prepareBatch("""
        UPDATE notification_buckets SET flushed = greatest(flushed, :position)
         WHERE day = :day AND subscriber_id = :subscriber""");
    positions.forEach((day, position) -> batch
        .bind("day", day)
        .bind("subscriber", subscriberId)
        .bind("position", position)
        .add());
    if (!positions.isEmpty()) batch.execute();
  }
}
