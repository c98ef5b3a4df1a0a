package dev.tidings.audience;

import static dev.tidings.Problems.toValidate;
import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldSpec.required;
import static dev.tidings.imports.FieldType.DECIMAL;
import static dev.tidings.imports.FieldType.TEXT;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.imports.RowFields;
import dev.tidings.imports.RowMapper;
import dev.tidings.imports.RowSchema;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRulesException;
import java.util.IllformedLocaleException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** The {@code subscribers} format: fields of a CSV row, a JSON line or an API body, into a {@link Subscriber}. */
final class SubscriberRows implements RowMapper<Subscriber> {
  static final SubscriberRows INSTANCE = new SubscriberRows();

  static final int ID = 0;
  static final int EMAIL = 1;
  static final int NAME = 2;
  static final int LOCALE = 3;
  static final int TIME_ZONE = 4;
  static final int LATITUDE = 5;
  static final int LONGITUDE = 6;
  static final int CITY = 7;
  static final int COUNTRY = 8;
  static final int CONSENT = 9;
  static final int MARKET = 10;

  private static final RowSchema SCHEMA = RowSchema.of(
      required("id", TEXT),
      required("email", TEXT),
      optional("name", TEXT),
      optional("locale", TEXT),
      optional("timeZone", TEXT),
      optional("latitude", DECIMAL),
      optional("longitude", DECIMAL),
      optional("city", TEXT),
      optional("country", TEXT),
      optional("consent", TEXT),
      optional("market", TEXT));

  /** Few distinct tags occur in practice; parsing each once keeps the hot path cheap. Bounded below. */
  private static final Map<String, Locale> LOCALES = new ConcurrentHashMap<>();

  private static final Map<String, ZoneId> ZONES = new ConcurrentHashMap<>();
  private static final int CACHE_LIMIT = 2000;

  private SubscriberRows() {}

  @Override
  public RowSchema schema() {
    return SCHEMA;
  }

  @Override
  public Subscriber map(RowFields row) {
    var problems = new Problems();
    String givenEmail = row.text(EMAIL);
    String email = givenEmail == null ? null : Subscriber.email(problems, givenEmail);
    Locale locale = locale(row.text(LOCALE), problems);
    ZoneId zone = zone(row.text(TIME_ZONE), problems);
    BigDecimal latitude = row.decimal(LATITUDE, problems);
    BigDecimal longitude = row.decimal(LONGITUDE, problems);
    if (row.isGiven(LATITUDE) != row.isGiven(LONGITUDE)) {
      problems.add(Problem.at(
          row.isGiven(LATITUDE) ? "longitude" : "latitude",
          Problem.Rule.MISSING,
          "latitude and longitude go together: give both or neither"));
    }
    Consent consent = Consent.SUBSCRIBED;
    String consentText = row.text(CONSENT);
    if (consentText != null) {
      consent = Consent.ofWire(consentText).orElse(null);
      if (consent == null)
        problems.add(Problem.unknown(
            "consent",
            "consent must be subscribed, pending or unsubscribed, got "
                + Problems.quote(consentText)));
    }
    Optional<Location> location = Optional.empty();
    if (problems.isEmpty()) {
      try {
        location = location(latitude, longitude, row.optionalText(CITY), row.optionalText(COUNTRY));
      } catch (InvalidInputException e) {
        e.asProblems().forEach(problems::add);
      }
    }
    Consent consentGiven = consent;
    Optional<Location> locationGiven = location;
    return problems.build(() -> new Subscriber(
        toValidate(row.text(ID)),
        toValidate(email),
        row.optionalText(NAME),
        locale,
        zone,
        locationGiven,
        toValidate(consentGiven),
        row.optionalText(MARKET)));
  }

  private static Optional<Location> location(
      @Nullable BigDecimal latitude,
      @Nullable BigDecimal longitude,
      Optional<String> city,
      Optional<String> country) {
    Optional<GeoPoint> point = latitude == null || longitude == null
        ? Optional.empty()
        : Optional.of(new GeoPoint(latitude.doubleValue(), longitude.doubleValue()));
    if (point.isEmpty() && city.isEmpty() && country.isEmpty()) return Optional.empty();
    return Optional.of(new Location(point, city, country));
  }

  private static Locale locale(@Nullable String tag, Problems problems) {
    if (tag == null) return Locale.ENGLISH;
    Locale cached = LOCALES.get(tag);
    if (cached != null) return cached;
    try {
      Locale locale = new Locale.Builder().setLanguageTag(tag).build();
      if (LOCALES.size() < CACHE_LIMIT) LOCALES.put(tag, locale);
      return locale;
    } catch (IllformedLocaleException e) {
      problems.add(Problem.format(
          "locale",
          "locale must be a BCP 47 language tag such as de-DE, got " + Problems.quote(tag)));
      return Locale.ENGLISH;
    }
  }

  private static ZoneId zone(@Nullable String id, Problems problems) {
    if (id == null) return ZoneOffset.UTC;
    ZoneId cached = ZONES.get(id);
    if (cached != null) return cached;
    try {
      ZoneId zone = ZoneId.of(id);
      if (ZONES.size() < CACHE_LIMIT) ZONES.put(id, zone);
      return zone;
    } catch (DateTimeException e) {
      // a well-formed name that no zone has (Europe/Berlln) is unknown, any other text a format
      problems.add(Problem.at(
          "timeZone",
          e instanceof ZoneRulesException ? Problem.Rule.UNKNOWN : Problem.Rule.FORMAT,
          "timeZone must be an IANA time zone such as Europe/Berlin, got " + Problems.quote(id)));
      return ZoneOffset.UTC;
    }
  }
}
