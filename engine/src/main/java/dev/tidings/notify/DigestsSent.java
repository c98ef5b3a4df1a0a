package dev.tidings.notify;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;

/** The record of digest emails sent ({@code digests_sent}): who got which pieces, from which run. */
public final class DigestsSent {
  /** One sent digest: the pieces it told, with their titles in the same order. */
  public record Sent(
      String subscriberId, Instant sentAt, List<String> contentIds, List<String> titles) {}

  /** A piece and how many digests told it. */
  public record Told(String contentId, String title, long digests) {}

  /** A campaign's digests: how many, how many pieces they held in all, the most told, the latest. */
  public record Summary(long digests, long pieces, List<Told> mostTold, List<Sent> latest) {}

  private DigestsSent() {}

  /** Records what one digest told; false when it was recorded before (nothing changed). */
  static boolean record(
      Handle handle,
      String subscriberId,
      List<String> contentIds,
      long campaignId,
      long runId,
      Instant now) {
    return handle
            .createUpdate("""
            INSERT INTO digests_sent (campaign_id, run_id, subscriber_id, sent_at, content_ids)
            VALUES (:campaign, :run, :subscriber, :now, :ids)
            ON CONFLICT DO NOTHING""")
            .bind("campaign", campaignId)
            .bind("run", runId)
            .bind("subscriber", subscriberId)
            .bind("now", Timestamp.from(now))
            .bindArray("ids", String.class, contentIds)
            .execute()
        == 1;
  }

  static List<String> told(Handle handle, long campaignId, long runId, String subscriberId) {
    return handle
        .createQuery("""
            SELECT content_ids FROM digests_sent
             WHERE campaign_id = :campaign AND run_id = :run AND subscriber_id = :subscriber""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("subscriber", subscriberId)
        .map((rows, context) -> List.of((String[]) rows.getArray("content_ids").getArray()))
        .findOne()
        .orElse(List.of());
  }

  static Summary summary(Handle handle, long campaignId, int latest) {
    var totals = handle
        .createQuery("""
            SELECT count(*) AS digests, coalesce(sum(cardinality(content_ids)), 0) AS pieces
              FROM digests_sent WHERE campaign_id = :campaign""")
        .bind("campaign", campaignId)
        .map((rows, context) -> new long[] {rows.getLong("digests"), rows.getLong("pieces")})
        .one();
    List<Told> mostTold = handle
        .createQuery("""
            SELECT t.id, coalesce(c.title, t.id) AS title, t.digests FROM (
              SELECT id, count(*) AS digests
                FROM digests_sent, unnest(content_ids) AS id
               WHERE campaign_id = :campaign GROUP BY id ORDER BY count(*) DESC, id LIMIT 10) t
              LEFT JOIN content c ON c.id = t.id
             ORDER BY t.digests DESC, t.id""")
        .bind("campaign", campaignId)
        .map((rows, context) ->
            new Told(rows.getString("id"), rows.getString("title"), rows.getLong("digests")))
        .list();
    List<Sent> recent = handle
        .createQuery("""
            SELECT subscriber_id, sent_at, content_ids,
                   ARRAY(SELECT coalesce(c.title, told.id)
                           FROM unnest(d.content_ids) WITH ORDINALITY AS told (id, n)
                           LEFT JOIN content c ON c.id = told.id ORDER BY told.n) AS titles
              FROM digests_sent d
             WHERE campaign_id = :campaign ORDER BY sent_at DESC, subscriber_id LIMIT :latest""")
        .bind("campaign", campaignId)
        .bind("latest", latest)
        .map((rows, context) -> new Sent(
            rows.getString("subscriber_id"),
            rows.getTimestamp("sent_at").toInstant(),
            List.of((String[]) rows.getArray("content_ids").getArray()),
            List.of((String[]) rows.getArray("titles").getArray())))
        .list();
    return new Summary(totals[0], totals[1], mostTold, recent);
  }
}
