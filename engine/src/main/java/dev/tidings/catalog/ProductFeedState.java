package dev.tidings.catalog;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * What the last successful fetch of a feed URL left (V33's {@code product_feed_state}): the validators to
 * send next time and when it succeeded. Shared by every node through the database.
 */
record ProductFeedState(Optional<String> etag, Optional<String> lastModified, Instant succeededAt) {
  /** The request headers of a conditional fetch. */
  Map<String, String> conditionalHeaders() {
    var headers = new LinkedHashMap<String, String>();
    etag.ifPresent(value -> headers.put("If-None-Match", value));
    lastModified.ifPresent(value -> headers.put("If-Modified-Since", value));
    return headers;
  }

  static Optional<ProductFeedState> load(Jdbi jdbi, String url) {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT etag, last_modified, succeeded_at FROM product_feed_state WHERE url = :url")
        .bind("url", url)
        .map((rows, context) -> new ProductFeedState(
            Optional.ofNullable(rows.getString("etag")),
            Optional.ofNullable(rows.getString("last_modified")),
            rows.getTimestamp("succeeded_at").toInstant()))
        .findOne());
  }

  /** Records a fetched and imported feed with the validators of its answer (none: none are sent next). */
  static void saveImported(Jdbi jdbi, String url, Map<String, String> validators, Instant now) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO product_feed_state (url, etag, last_modified, succeeded_at)
            VALUES (:url, :etag, :lastModified, :now)
            ON CONFLICT (url) DO UPDATE SET etag = excluded.etag,
                   last_modified = excluded.last_modified, succeeded_at = excluded.succeeded_at""")
        .bind("url", url)
        .bind("etag", validators.get("ETag"))
        .bind("lastModified", validators.get("Last-Modified"))
        .bind("now", now)
        .execute());
  }

  /** Records a fetch answered "not modified": the validators stay. */
  static void saveNotModified(Jdbi jdbi, String url, Instant now) {
    jdbi.useHandle(handle -> handle
        .createUpdate("UPDATE product_feed_state SET succeeded_at = :now WHERE url = :url")
        .bind("url", url)
        .bind("now", now)
        .execute());
  }
}
