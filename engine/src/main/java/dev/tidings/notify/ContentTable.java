package dev.tidings.notify;

import dev.tidings.Json;
import dev.tidings.WebUrl;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.GeoPoint;
import dev.tidings.audience.TargetType;
import dev.tidings.storage.StoredRows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/** The SQL of {@code content} (V16__notifications.sql). */
final class ContentTable {
  private static final String COLUMNS =
      "id, type, title, url, image_url, owners::text AS owners, latitude, longitude, radius_km, starts_at, ends_at, published";

  private ContentTable() {}

  /** Inserts or replaces; true when it was new. Publishing is left as it was on a replace. */
  static boolean put(Handle handle, Content content, Instant now) {
    return handle
        .createQuery("""
            INSERT INTO content (id, type, title, url, image_url, owners, latitude, longitude, radius_km,
                                 starts_at, ends_at, published, created_at, updated_at)
            VALUES (:id, :type, :title, :url, :imageUrl, :owners::jsonb, :latitude, :longitude, :radius,
                    :startsAt, :endsAt, false, :now, :now)
            ON CONFLICT (id) DO UPDATE SET
              type = excluded.type, title = excluded.title, url = excluded.url,
              image_url = excluded.image_url,
              owners = excluded.owners, latitude = excluded.latitude, longitude = excluded.longitude,
              radius_km = excluded.radius_km, starts_at = excluded.starts_at,
              ends_at = excluded.ends_at, updated_at = excluded.updated_at
            RETURNING xmax = 0""")
        .bind("id", content.id())
        .bind("type", content.type().wire())
        .bind("title", content.title())
        .bind("url", content.url().orElse(null))
        .bind("imageUrl", content.imageUrl().orElse(null))
        .bind("owners", owners(content.owners()))
        .bind("latitude", content.location().map(GeoPoint::latitude).orElse(null))
        .bind("longitude", content.location().map(GeoPoint::longitude).orElse(null))
        .bind("radius", content.radiusKm())
        .bind("startsAt", content.startsAt().map(Timestamp::from).orElse(null))
        .bind("endsAt", content.endsAt().map(Timestamp::from).orElse(null))
        .bind("now", Timestamp.from(now))
        .mapTo(Boolean.class)
        .one();
  }

  /**
   * Stores brand products as published content unless content with their id exists; returns the ids it
   * stored, the ones to tell of.
   */
  static List<String> insertPublishedProducts(Handle handle, List<Content> products, Instant now) {
    if (products.isEmpty()) return List.of();
    return handle
        .createQuery("""
            INSERT INTO content (id, type, title, url, image_url, owners, published, created_at,
                                 updated_at)
            SELECT id, 'product', title, url, image_url, owners::jsonb, true, :now, :now
              FROM unnest(:ids::text[], :titles::text[], :urls::text[], :images::text[],
                          :owners::text[]) AS p (id, title, url, image_url, owners)
            ON CONFLICT (id) DO NOTHING
            RETURNING id""")
        .bindArray("ids", String.class, products.stream().map(Content::id).toList())
        .bindArray("titles", String.class, products.stream().map(Content::title).toList())
        .bindArray(
            "urls",
            String.class,
            products.stream().map(c -> c.url().orElse(null)).toList())
        .bindArray(
            "images",
            String.class,
            products.stream().map(c -> c.imageUrl().orElse(null)).toList())
        .bindArray(
            "owners",
            String.class,
            products.stream().map(c -> owners(c.owners())).toList())
        .bind("now", Timestamp.from(now))
        .mapTo(String.class)
        .list();
  }

  static Optional<Content> get(Handle handle, String id) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM content WHERE id = :id")
        .bind("id", id)
        .map((rows, context) -> read(rows, StoredRows.of(context)))
        .findOne();
  }

  static List<Content> all(Handle handle, Collection<String> ids) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM content WHERE id = ANY(:ids)")
        .bindArray("ids", String.class, ids)
        .map((rows, context) -> read(rows, StoredRows.of(context)))
        .list();
  }

  static List<Content> page(Handle handle, Optional<String> after, int limit) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM content WHERE id COLLATE \"C\" > :after"
            + " ORDER BY id COLLATE \"C\" LIMIT :limit")
        .bind("after", after.orElse(""))
        .bind("limit", limit)
        .map((rows, context) -> read(rows, StoredRows.of(context)))
        .list();
  }

  static boolean delete(Handle handle, String id) {
    return handle
            .createUpdate("DELETE FROM content WHERE id = :id")
            .bind("id", id)
            .execute()
        == 1;
  }

  /** Sets published; the content as it is now, or empty when there is none. */
  static Optional<Content> publish(Handle handle, String id, boolean published, Instant now) {
    return handle
        .createQuery("UPDATE content SET published = :published, updated_at = :now WHERE id = :id"
            + " RETURNING " + COLUMNS)
        .bind("id", id)
        .bind("published", published)
        .bind("now", Timestamp.from(now))
        .map((rows, context) -> read(rows, StoredRows.of(context)))
        .findOne();
  }

  private static String owners(List<FollowTarget> owners) {
    ArrayNode array = Json.MAPPER.createArrayNode();
    for (FollowTarget owner : owners)
      array.addObject().put("type", owner.type().wire()).put("id", owner.id());
    return array.toString();
  }

  /** Content stored without a place (a product's news) has no radius: the default stands in. */
  private static double radius(ResultSet rows) throws SQLException {
    double radius = rows.getDouble("radius_km");
    return rows.wasNull() ? Content.DEFAULT_RADIUS_KM : radius;
  }

  private static Content read(ResultSet rows, StoredRows report) throws SQLException {
    var owners = new ArrayList<FollowTarget>();
    for (JsonNode owner : Json.MAPPER.readTree(rows.getString("owners")))
      owners.add(new FollowTarget(
          TargetType.ofWire(owner.path("type").asString("")).orElseThrow(),
          owner.path("id").asString("")));
    double latitude = rows.getDouble("latitude");
    Optional<GeoPoint> location = rows.wasNull()
        ? Optional.empty()
        : Optional.of(new GeoPoint(latitude, rows.getDouble("longitude")));
    return new Content(
        rows.getString("id"),
        ContentType.ofWire(rows.getString("type")).orElseThrow(),
        rows.getString("title"),
        link(rows, "url", report),
        link(rows, "image_url", report),
        owners,
        location,
        radius(rows),
        Optional.ofNullable(rows.getTimestamp("starts_at")).map(Timestamp::toInstant),
        Optional.ofNullable(rows.getTimestamp("ends_at")).map(Timestamp::toInstant),
        rows.getBoolean("published"));
  }

  /**
   * A link column as today's rules read it: a link an earlier version stored that {@link WebUrl}
   * refuses now (a product's news copied its landing URL) is read as absent, counted and logged once,
   * so that the digests that tell it still go out.
   */
  private static Optional<String> link(ResultSet rows, String column, StoredRows report)
      throws SQLException {
    Optional<String> link = Optional.ofNullable(rows.getString(column));
    Optional<String> problem = link.flatMap(WebUrl::problem);
    if (problem.isEmpty()) return link;
    report.fieldDropped("content", column, rows.getString("id"), problem.get());
    return Optional.empty();
  }
}
