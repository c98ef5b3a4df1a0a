package dev.tidings.audience;

import dev.tidings.storage.PublishedSql;
import java.util.Set;

/**
 * The audience's rows as SQL other capabilities compose into one statement (a campaign's segment is
 * planned by PostgreSQL as a whole; a place's news is written to its neighbours in one pass): the
 * fragments name the tables, so no other package does, and a row source hands out only the columns it
 * lists, under names this class publishes, so a column renamed in a table is renamed here and nowhere
 * else. Every predicate reads the subscriber row aliased {@code s} of {@link #SUBSCRIBERS} and takes its
 * values as bound parameters under the prefix the caller gives, never as spliced text. Distances are
 * {@code tidings_distance_km} (migration V40), the one great-circle formula.
 */
public final class SubscriberSql {
  /**
   * The FROM item of a query over subscribers, aliased {@code s}: columns {@code id}, {@code email},
   * {@code consent}, {@code country}, {@code city}, {@code time_zone}, {@code locale}, {@code latitude}
   * and {@code longitude}, as in {@link Subscriber}.
   */
  public static final String SUBSCRIBERS = PublishedSql.by(
      SubscriberSql.class,
      "(SELECT id, email, consent, country, city, time_zone, locale, latitude, longitude"
          + " FROM subscribers) AS s (id, email, consent, country, city, time_zone, locale,"
          + " latitude, longitude)");

  private static final Set<String> TEXT_FIELDS = Set.of("country", "city", "time_zone");

  private SubscriberSql() {}

  /**
   * Who follows what, as a FROM item under {@code alias}: columns {@code subscriber_id}, {@code
   * target_type} (a {@link TargetType} wire name) and {@code target_id}; looked up by target through
   * the follows' index.
   */
  public static String followers(String alias) {
    return PublishedSql.by(
        SubscriberSql.class,
        "(SELECT subscriber_id, target_type, target_id FROM follows) AS " + alias(alias)
            + " (subscriber_id, target_type, target_id)");
  }

  /**
   * The subscribers within {@code :<p>km} of ({@code :<p>lat}, {@code :<p>lon}), as a FROM item under
   * {@code alias} with one column, {@code subscriber_id}: the position index finds those in the
   * bounding box, the great-circle distance keeps those in the circle. A box that would cross the
   * antimeridian or a pole is cut there, which only a radius of hundreds of km near them notices.
   */
  public static String within(String alias, String p) {
    return PublishedSql.by(
        SubscriberSql.class,
        ("(SELECT id FROM subscribers WHERE latitude IS NOT NULL"
                + " AND point(longitude, latitude) <@ box("
                + "point(greatest(-180, :%1$slon - :%1$skm / (111.2 * greatest(0.01, cos(radians(:%1$slat))))),"
                + " greatest(-90, :%1$slat - :%1$skm / 111.2)),"
                + " point(least(180, :%1$slon + :%1$skm / (111.2 * greatest(0.01, cos(radians(:%1$slat))))),"
                + " least(90, :%1$slat + :%1$skm / 111.2)))"
                + " AND tidings_distance_km(latitude, longitude, :%1$slat, :%1$slon) <= :%1$skm)"
                + " AS %2$s (subscriber_id)")
            .formatted(prefix(p), alias(alias)));
  }

  private static String alias(String alias) {
    if (!alias.matches("[a-z]{1,8}")) throw new IllegalArgumentException("not an alias: " + alias);
    return alias;
  }

  private static String prefix(String p) {
    if (!p.matches("[a-z0-9_]{0,16}")) throw new IllegalArgumentException("not a prefix: " + p);
    return p;
  }

  /** Subscribed and not suppressed: who any campaign may reach. */
  public static String reachable() {
    return PublishedSql.by(
        SubscriberSql.class,
        "s.consent = 'subscribed'"
            + " AND NOT EXISTS (SELECT 1 FROM suppressions x WHERE lower(x.email) = lower(s.email))");
  }

  /** One of the subscriber's text fields in {@code :<p>values} (lower-cased text[]). */
  public static String fieldIn(String column, String p) {
    if (!TEXT_FIELDS.contains(column))
      throw new IllegalArgumentException("not a subscriber text field: " + column);
    return "lower(s." + column + ") = ANY(:" + p + "values)";
  }

  /** The locale tag or its language in {@code :<p>locales} (lower-cased text[]). */
  public static String localeIn(String p) {
    return "(lower(s.locale) = ANY(:" + p
        + "locales) OR split_part(lower(s.locale), '-', 1) = ANY(:" + p + "locales))";
  }

  /**
   * Within {@code :<p>km} of ({@code :<p>lat}, {@code :<p>lon}): the great-circle distance, with no
   * bounding box (a segment's circle may cross the antimeridian).
   */
  public static String near(String p) {
    return ("(s.latitude IS NOT NULL"
            + " AND tidings_distance_km(s.latitude, s.longitude, :%1$slat, :%1$slon) <= :%1$skm)")
        .formatted(prefix(p));
  }

  /** Follows the target {@code :<p>type} / {@code :<p>id}. */
  public static String follows(String p) {
    return PublishedSql.by(
        SubscriberSql.class,
        "EXISTS (SELECT 1 FROM follows f WHERE f.subscriber_id = s.id AND f.target_type = :" + p
            + "type AND f.target_id = :" + p + "id)");
  }
}
