package dev.tidings.audience;

import java.util.Set;

/**
 * The audience's tables as SQL other capabilities compose into one statement (a campaign's segment is
 * planned by PostgreSQL as a whole): the fragments name the tables, so no other package does. Every
 * fragment reads the subscriber row aliased {@code s} and takes its values as bound parameters under the
 * prefix the caller gives, never as spliced text.
 */
public final class SubscriberSql {
  /** The FROM item of a query over subscribers, aliased {@code s}. */
  public static final String SUBSCRIBERS = "subscribers s";

  private static final Set<String> TEXT_FIELDS = Set.of("country", "city", "time_zone");

  private SubscriberSql() {}

  /**
   * The follows as a FROM item under {@code alias}: columns {@code subscriber_id}, {@code target_type}
   * (a {@link TargetType} wire name) and {@code target_id}.
   */
  public static String followsAs(String alias) {
    return "follows " + alias(alias);
  }

  /**
   * The subscribers as a FROM item under {@code alias}, for statements that go through them all (a
   * fan-out by position): columns as in {@link Subscriber}, {@code latitude} and {@code longitude}
   * indexed together as {@code point(longitude, latitude)}.
   */
  public static String subscribersAs(String alias) {
    return "subscribers " + alias(alias);
  }

  private static String alias(String alias) {
    if (!alias.matches("[a-z]{1,8}")) throw new IllegalArgumentException("not an alias: " + alias);
    return alias;
  }

  /** Subscribed and not suppressed: who any campaign may reach. */
  public static String reachable() {
    return "s.consent = 'subscribed'"
        + " AND NOT EXISTS (SELECT 1 FROM suppressions x WHERE lower(x.email) = lower(s.email))";
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
   * Within {@code :<p>km} of ({@code :<p>lat}, {@code :<p>lon}): haversine distance on a 6,371 km
   * sphere.
   */
  public static String near(String p) {
    return ("(s.latitude IS NOT NULL AND 2 * 6371 * asin(least(1, sqrt("
            + "power(sin(radians(s.latitude - :%1$slat) / 2), 2)"
            + " + cos(radians(:%1$slat)) * cos(radians(s.latitude))"
            + " * power(sin(radians(s.longitude - :%1$slon) / 2), 2)))) <= :%1$skm)")
        .formatted(p);
  }

  /** Follows the target {@code :<p>type} / {@code :<p>id}. */
  public static String follows(String p) {
    return "EXISTS (SELECT 1 FROM follows f WHERE f.subscriber_id = s.id AND f.target_type = :" + p
        + "type AND f.target_id = :" + p + "id)";
  }
}
