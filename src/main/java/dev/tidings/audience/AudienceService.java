package dev.tidings.audience;

import dev.tidings.InvalidInputException;
import dev.tidings.imports.BulkImporter;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportKind;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;

/** Subscribers, what they follow, and the addresses never to mail (suppressions). */
public final class AudienceService {
  /** Largest page a list method returns. */
  public static final int MAX_PAGE = 1000;

  private static final String SUBSCRIBER_COLUMNS =
      "id, email, name, locale, time_zone, latitude, longitude, city, country, consent";

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final BulkImporter importer;
  private final ImportKind<Subscriber> subscribers;
  private final ImportKind<Follow> follows;

  public AudienceService(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
    this.importer = new BulkImporter(jdbi, clock);
    this.subscribers =
        new ImportKind<>("subscribers", SubscriberRows.INSTANCE, new SubscriberStaging());
    this.follows = new ImportKind<>("follows", new FollowRows(clock), new FollowStaging());
  }

  // ---- subscribers

  /**
   * Creates or replaces the subscriber with this id.
   *
   * @throws InvalidInputException when the email belongs to another subscriber
   */
  public Subscriber putSubscriber(Subscriber subscriber) {
    return jdbi.inTransaction(handle -> {
      Optional<String> owner = handle
          .createQuery(
              "SELECT id FROM subscribers WHERE lower(email) = lower(:email) AND id <> :id")
          .bind("email", subscriber.email())
          .bind("id", subscriber.id())
          .mapTo(String.class)
          .findOne();
      if (owner.isPresent()) {
        throw new InvalidInputException(
            "email " + subscriber.email() + " already belongs to subscriber " + owner.get());
      }
      var point = subscriber.location().flatMap(Location::point);
      handle
          .createUpdate("""
              INSERT INTO subscribers (id, email, name, locale, time_zone, latitude, longitude, city, country, consent,
                                       created_at, updated_at)
              VALUES (:id, :email, :name, :locale, :timeZone, :latitude, :longitude, :city, :country, :consent, :now, :now)
              ON CONFLICT (id) DO UPDATE SET email = excluded.email, name = excluded.name, locale = excluded.locale,
                     time_zone = excluded.time_zone, latitude = excluded.latitude, longitude = excluded.longitude,
                     city = excluded.city, country = excluded.country, consent = excluded.consent,
                     updated_at = excluded.updated_at""")
          .bind("id", subscriber.id())
          .bind("email", subscriber.email())
          .bind("name", subscriber.name().orElse(null))
          .bind("locale", subscriber.locale().toLanguageTag())
          .bind("timeZone", subscriber.timeZone().getId())
          .bind("latitude", point.map(GeoPoint::latitude).orElse(null))
          .bind("longitude", point.map(GeoPoint::longitude).orElse(null))
          .bind("city", subscriber.location().flatMap(Location::city).orElse(null))
          .bind("country", subscriber.location().flatMap(Location::country).orElse(null))
          .bind("consent", subscriber.consent().wire())
          .bind("now", clock.instant())
          .execute();
      return subscriber;
    });
  }

  public Optional<Subscriber> getSubscriber(String id) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT " + SUBSCRIBER_COLUMNS + " FROM subscribers WHERE id = :id")
        .bind("id", id)
        .map(AudienceService::subscriber)
        .findOne());
  }

  /** The subscriber with this email, compared case-insensitively. */
  public Optional<Subscriber> findByEmail(String email) {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT " + SUBSCRIBER_COLUMNS + " FROM subscribers WHERE lower(email) = lower(:email)")
        .bind("email", email)
        .map(AudienceService::subscriber)
        .findOne());
  }

  /** Up to {@code limit} subscribers in id order after the id {@code after} (keyset pagination). */
  public List<Subscriber> listSubscribers(Optional<String> after, int limit) {
    checkLimit(limit);
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT " + SUBSCRIBER_COLUMNS
                + " FROM subscribers WHERE (:after::text IS NULL OR id > :after) ORDER BY id LIMIT :limit")
        .bind("after", after.orElse(null))
        .bind("limit", limit)
        .map(AudienceService::subscriber)
        .list());
  }

  /** Deletes the subscriber and its follows; false when there was none. Suppressions stay (they are per address). */
  public boolean deleteSubscriber(String id) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("DELETE FROM subscribers WHERE id = :id")
            .bind("id", id)
            .execute())
        > 0;
  }

  public long countSubscribers() {
    return jdbi.withHandle(handle ->
        handle.createQuery("SELECT count(*) FROM subscribers").mapTo(Long.class).one());
  }

  public ImportReport importSubscribers(Path file, ImportOptions options) {
    return importer.run(subscribers, file, options);
  }

  public ImportReport importSubscribers(InputStream in, Format format, ImportOptions options) {
    return importer.run(subscribers, in, format, options);
  }

  // ---- follows

  /**
   * Records (or re-dates) a follow.
   *
   * @throws InvalidInputException when the subscriber does not exist
   */
  public Follow follow(Follow follow) {
    return jdbi.inTransaction(handle -> {
      int inserted = handle
          .createUpdate("""
              INSERT INTO follows (subscriber_id, target_type, target_id, followed_at)
              SELECT id, :type, :target, :at FROM subscribers WHERE id = :subscriber
              ON CONFLICT (subscriber_id, target_type, target_id) DO UPDATE SET followed_at = excluded.followed_at""")
          .bind("subscriber", follow.subscriberId())
          .bind("type", follow.target().type().wire())
          .bind("target", follow.target().id())
          .bind("at", follow.followedAt())
          .execute();
      if (inserted == 0)
        throw new InvalidInputException("subscriber " + follow.subscriberId() + " does not exist");
      return follow;
    });
  }

  /** False when the subscriber did not follow the target. */
  public boolean unfollow(String subscriberId, FollowTarget target) {
    return jdbi.withHandle(handle -> handle
            .createUpdate(
                "DELETE FROM follows WHERE subscriber_id = :s AND target_type = :type AND target_id = :target")
            .bind("s", subscriberId)
            .bind("type", target.type().wire())
            .bind("target", target.id())
            .execute())
        > 0;
  }

  /** What one subscriber follows, by target type then id. */
  public List<Follow> followsOf(String subscriberId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT subscriber_id, target_type, target_id, followed_at FROM follows
             WHERE subscriber_id = :s ORDER BY target_type, target_id""")
        .bind("s", subscriberId)
        .map(AudienceService::follow)
        .list());
  }

  /** Followers of a target in subscriber id order, after the subscriber id {@code after} (keyset pagination). */
  public List<Follow> followers(FollowTarget target, Optional<String> after, int limit) {
    checkLimit(limit);
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT subscriber_id, target_type, target_id, followed_at FROM follows
             WHERE target_type = :type AND target_id = :target AND (:after::text IS NULL OR subscriber_id > :after)
             ORDER BY subscriber_id LIMIT :limit""")
        .bind("type", target.type().wire())
        .bind("target", target.id())
        .bind("after", after.orElse(null))
        .bind("limit", limit)
        .map(AudienceService::follow)
        .list());
  }

  public ImportReport importFollows(Path file, ImportOptions options) {
    return importer.run(follows, file, options);
  }

  public ImportReport importFollows(InputStream in, Format format, ImportOptions options) {
    return importer.run(follows, in, format, options);
  }

  // ---- suppressions

  /** Suppresses an address; when it already was, the existing suppression (its first reason and date) is kept and returned. */
  public Suppression suppress(Suppression suppression) {
    return jdbi.inTransaction(handle -> {
      handle
          .createUpdate("""
              INSERT INTO suppressions (email, reason, created_at) VALUES (:email, :reason, :at)
              ON CONFLICT ((lower(email))) DO NOTHING""")
          .bind("email", suppression.email())
          .bind("reason", suppression.reason().wire())
          .bind("at", suppression.createdAt())
          .execute();
      return findSuppression(handle, suppression.email()).orElseThrow();
    });
  }

  public Optional<Suppression> suppression(String email) {
    return jdbi.withHandle(handle -> findSuppression(handle, email));
  }

  /** Whether mail to this address (compared case-insensitively) must not be sent. */
  public boolean isSuppressed(String email) {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT EXISTS (SELECT 1 FROM suppressions WHERE lower(email) = lower(:email))")
        .bind("email", email)
        .mapTo(Boolean.class)
        .one());
  }

  /** False when the address was not suppressed. */
  public boolean unsuppress(String email) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("DELETE FROM suppressions WHERE lower(email) = lower(:email)")
            .bind("email", email)
            .execute())
        > 0;
  }

  /** Suppressions ordered by lower-cased address, after the address {@code after} (keyset pagination). */
  public List<Suppression> listSuppressions(Optional<String> after, int limit) {
    checkLimit(limit);
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT email, reason, created_at FROM suppressions
             WHERE (:after::text IS NULL OR lower(email) > lower(:after))
             ORDER BY lower(email) LIMIT :limit""")
        .bind("after", after.orElse(null))
        .bind("limit", limit)
        .map(AudienceService::suppression)
        .list());
  }

  private static Optional<Suppression> findSuppression(Handle handle, String email) {
    return handle
        .createQuery(
            "SELECT email, reason, created_at FROM suppressions WHERE lower(email) = lower(:email)")
        .bind("email", email)
        .map(AudienceService::suppression)
        .findOne();
  }

  private static void checkLimit(int limit) {
    if (limit < 1 || limit > MAX_PAGE)
      throw new InvalidInputException("limit must be 1.." + MAX_PAGE + ", got " + limit);
  }

  private static Subscriber subscriber(ResultSet rs, StatementContext ctx) throws SQLException {
    double latitude = rs.getDouble("latitude");
    Optional<GeoPoint> point = rs.wasNull()
        ? Optional.empty()
        : Optional.of(new GeoPoint(latitude, rs.getDouble("longitude")));
    Optional<String> city = Optional.ofNullable(rs.getString("city"));
    Optional<String> country = Optional.ofNullable(rs.getString("country"));
    Optional<Location> location = point.isEmpty() && city.isEmpty() && country.isEmpty()
        ? Optional.empty()
        : Optional.of(new Location(point, city, country));
    return new Subscriber(
        rs.getString("id"),
        rs.getString("email"),
        Optional.ofNullable(rs.getString("name")),
        Locale.forLanguageTag(rs.getString("locale")),
        ZoneId.of(rs.getString("time_zone")),
        location,
        Consent.ofWire(rs.getString("consent")).orElseThrow());
  }

  private static Follow follow(ResultSet rs, StatementContext ctx) throws SQLException {
    return new Follow(
        rs.getString("subscriber_id"),
        new FollowTarget(
            TargetType.ofWire(rs.getString("target_type")).orElseThrow(),
            rs.getString("target_id")),
        rs.getTimestamp("followed_at").toInstant());
  }

  private static Suppression suppression(ResultSet rs, StatementContext ctx) throws SQLException {
    return new Suppression(
        rs.getString("email"),
        SuppressionReason.ofWire(rs.getString("reason")).orElseThrow(),
        rs.getTimestamp("created_at").toInstant());
  }
}
