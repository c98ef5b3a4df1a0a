package dev.tidings.audience;

import dev.tidings.InvalidInputException;
import dev.tidings.storage.StoredRows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@code subscribers} row as stored, checked against today's rules: a row an earlier version wrote
 * (or one the JDK's lists of countries and time zones have since left behind) is read without the
 * field that breaks them: its name, city or country read as absent, its time zone as UTC (as the
 * audience query reads a zone no longer known). {@link SubscriberRepair} stores the same. The email is
 * never checked on read (a write normalises it). An id that breaks today's rule still fails the read.
 *
 * @param dropped the columns read as absent (or as UTC), each with why
 */
record StoredSubscriber(Subscriber subscriber, List<Finding> dropped) {
  static final String TABLE = "subscribers";
  /** What a time zone no longer known is read as, and what {@link SubscriberRepair} stores. */
  static final ZoneId UTC = ZoneId.of("UTC");

  /** A column of the row and the rule it breaks (never its value: it may be personal). */
  record Finding(String column, String reason) {}

  /** The subscriber of the current row, told to the database's {@link StoredRows} when it breaks a rule. */
  static Subscriber read(ResultSet rs, StoredRows report) throws SQLException {
    StoredSubscriber row = of(rs);
    for (Finding finding : row.dropped())
      report.fieldDropped(TABLE, finding.column(), row.subscriber().id(), finding.reason());
    return row.subscriber();
  }

  /**
   * The current row of a query of the subscriber's columns, checked.
   *
   * @throws InvalidInputException when a rule the row cannot do without fails (its id)
   */
  static StoredSubscriber of(ResultSet rs) throws SQLException {
    List<Finding> dropped = new ArrayList<>(1);
    Optional<String> name = name(rs.getString("name"), dropped);
    ZoneId zone = zone(rs.getString("time_zone"), dropped);
    double latitude = rs.getDouble("latitude");
    Optional<GeoPoint> point = rs.wasNull()
        ? Optional.empty()
        : Optional.of(new GeoPoint(latitude, rs.getDouble("longitude")));
    Optional<String> city = part(
        rs.getString("city"),
        "city",
        dropped,
        c -> new Location(Optional.empty(), Optional.of(c), Optional.empty()));
    Optional<String> country = part(
        rs.getString("country"),
        "country",
        dropped,
        c -> new Location(Optional.empty(), Optional.empty(), Optional.of(c)));
    Optional<Location> location = point.isEmpty() && city.isEmpty() && country.isEmpty()
        ? Optional.empty()
        : Optional.of(new Location(point, city, country));
    var subscriber = new Subscriber(
        rs.getString("id"),
        rs.getString("email"),
        name,
        Locale.forLanguageTag(rs.getString("locale")),
        zone,
        location,
        Consent.ofWire(rs.getString("consent")).orElseThrow(),
        Optional.ofNullable(rs.getString("market")));
    return new StoredSubscriber(subscriber, List.copyOf(dropped));
  }

  /** The name when today's rules for it hold (checked by the record's own constructor). */
  private static Optional<String> name(@Nullable String name, List<Finding> dropped) {
    if (name == null) return Optional.empty();
    try {
      new Subscriber(
          "name-check",
          "name@check",
          Optional.of(name),
          Locale.ROOT,
          ZoneOffset.UTC,
          Optional.empty(),
          Consent.SUBSCRIBED);
      return Optional.of(name);
    } catch (InvalidInputException e) {
      dropped.add(new Finding("name", String.join("; ", e.problems())));
      return Optional.empty();
    }
  }

  private static ZoneId zone(String id, List<Finding> dropped) {
    try {
      return ZoneId.of(id);
    } catch (DateTimeException e) {
      dropped.add(new Finding("time_zone", "not a time zone this JDK knows"));
      return UTC;
    }
  }

  /** A part of the location when a location of it alone passes today's rules. */
  private static Optional<String> part(
      @Nullable String value, String column, List<Finding> dropped, Consumer<String> check) {
    if (value == null) return Optional.empty();
    try {
      check.accept(value);
      return Optional.of(value);
    } catch (InvalidInputException e) {
      dropped.add(new Finding(column, String.join("; ", e.problems())));
      return Optional.empty();
    }
  }
}
