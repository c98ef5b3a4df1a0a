package dev.tidings.webhooks;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.events.CloudEventType;
import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * The shop's endpoints on PostgreSQL: registered, changed and removed by an operator, read by the
 * fan-out and the sender. Secrets are written here and read only to sign; no answer but {@link
 * #create} and {@link #rotate} carries one.
 */
public final class WebhookEndpoints {
  /** How long a rotated secret stays valid beside its successor. */
  public static final Duration ROTATION_OVERLAP = Duration.ofHours(24);
  /** Endpoints are operator-made and few: each is a label of the failures metric. */
  public static final int MAX_ENDPOINTS = 50;

  public static final int MAX_DESCRIPTION = 500;

  private static final String COLUMNS = """
      id, url, description, event_types, enabled, created_at, updated_at, previous_until,
      last_success_at, last_failure_at, last_failure, failures_in_a_row""";

  private final Jdbi jdbi;
  private final WebhookUrls urls;
  private final InstantSource clock;

  public WebhookEndpoints(Jdbi jdbi, WebhookUrls urls, InstantSource clock) {
    this.jdbi = jdbi;
    this.urls = urls;
    this.clock = clock;
  }

  /** A new endpoint and its secret, which no other answer shows again. */
  public record Created(WebhookEndpoint endpoint, SigningSecret secret) {}

  /** A rotated endpoint's new secret, and until when the one before it still verifies. */
  public record Rotated(WebhookEndpoint endpoint, SigningSecret secret, Instant previousUntil) {}

  /** Where one delivery goes and the secrets live now, newest first. */
  public record Target(URI url, List<SigningSecret> secrets) {}

  public Created create(EndpointFields fields) {
    check(fields, true);
    var secret = SigningSecret.generate();
    String id = "ep_" + HexFormat.of().formatHex(randomBytes(8));
    Instant now = clock.instant();
    return jdbi.inTransaction(handle -> {
      // one at a time, so the count cannot be passed by two creating at once
      handle.execute("LOCK TABLE webhook_endpoints IN SHARE ROW EXCLUSIVE MODE");
      int count = handle
          .createQuery("SELECT count(*) FROM webhook_endpoints")
          .mapTo(Integer.class)
          .one();
      if (count >= MAX_ENDPOINTS)
        throw new InvalidInputException(
            Problem.of("an installation has at most " + MAX_ENDPOINTS + " webhook endpoints"));
      handle
          .createUpdate("""
              INSERT INTO webhook_endpoints
                (id, url, description, event_types, enabled, secret, created_at, updated_at)
              VALUES (:id, :url, :description, :types, :enabled, :secret, :now, :now)""")
          .bind("id", id)
          .bind("url", fields.url().orElseThrow())
          .bind("description", fields.description().orElse(""))
          .bindArray("types", String.class, typeNames(fields.types().orElse(Set.of())))
          .bind("enabled", fields.enabled().orElse(true))
          .bind("secret", secret.value())
          .bind("now", Timestamp.from(now))
          .execute();
      var endpoint = handle
          .createQuery("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE id = :id")
          .bind("id", id)
          .map((rs, ctx) -> endpoint(rs))
          .one();
      return new Created(endpoint, secret);
    });
  }

  public List<WebhookEndpoint> list() {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT " + COLUMNS + " FROM webhook_endpoints ORDER BY created_at, id")
        .map((rs, ctx) -> endpoint(rs))
        .list());
  }

  public Optional<WebhookEndpoint> get(String id) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE id = :id")
        .bind("id", id)
        .map((rs, ctx) -> endpoint(rs))
        .findOne());
  }

  /** Changes what {@code fields} names; empty when there is no such endpoint. */
  public Optional<WebhookEndpoint> update(String id, EndpointFields fields) {
    check(fields, false);
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            UPDATE webhook_endpoints SET
              url = coalesce(:url, url),
              description = coalesce(:description, description),
              event_types = coalesce(:types, event_types),
              enabled = coalesce(:enabled, enabled),
              updated_at = :now
            WHERE id = :id
            RETURNING \s""" + COLUMNS)
        .bind("id", id)
        .bind("url", fields.url().orElse(null))
        .bind("description", fields.description().orElse(null))
        .bindArray(
            "types",
            String.class,
            fields.types().map(WebhookEndpoints::typeNames).orElse(null))
        .bind("enabled", fields.enabled().orElse(null))
        .bind("now", Timestamp.from(clock.instant()))
        .map((rs, ctx) -> endpoint(rs))
        .findOne());
  }

  public boolean delete(String id) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("DELETE FROM webhook_endpoints WHERE id = :id")
            .bind("id", id)
            .execute()
        > 0);
  }

  /**
   * A new secret for {@code id}; the one it replaces keeps verifying for {@link #ROTATION_OVERLAP},
   * and deliveries carry a signature under each meanwhile. A secret rotated before then is dropped.
   */
  public Optional<Rotated> rotate(String id) {
    var secret = SigningSecret.generate();
    Instant now = clock.instant();
    Instant until = now.plus(ROTATION_OVERLAP);
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            UPDATE webhook_endpoints SET
              previous_secret = secret, previous_until = :until, secret = :secret, updated_at = :now
            WHERE id = :id
            RETURNING \s""" + COLUMNS)
        .bind("id", id)
        .bind("secret", secret.value())
        .bind("until", Timestamp.from(until))
        .bind("now", Timestamp.from(now))
        .map((rs, ctx) -> new Rotated(endpoint(rs), secret, until))
        .findOne());
  }

  /** The enabled endpoints: those the fan-out sends to. */
  public List<WebhookEndpoint> enabled() {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT " + COLUMNS + " FROM webhook_endpoints WHERE enabled ORDER BY created_at, id")
        .map((rs, ctx) -> endpoint(rs))
        .list());
  }

  /** Where a delivery to {@code id} goes now; empty when it was deleted or disabled meanwhile. */
  public Optional<Target> target(String id) {
    Instant now = clock.instant();
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT url, secret, previous_secret, previous_until
            FROM webhook_endpoints WHERE id = :id AND enabled""")
        .bind("id", id)
        .map((rs, ctx) -> {
          var secrets = new ArrayList<SigningSecret>(2);
          secrets.add(new SigningSecret(rs.getString("secret")));
          String previous = rs.getString("previous_secret");
          Instant until = instant(rs, "previous_until");
          if (previous != null && until != null && until.isAfter(now))
            secrets.add(new SigningSecret(previous));
          return new Target(URI.create(rs.getString("url")), List.copyOf(secrets));
        })
        .findOne());
  }

  /**
   * Notes a delivered attempt: the failures in a row end. The last success is kept to the second: a
   * busy endpoint's deliveries would otherwise each write (and wait on the lock of) its one row, which
   * held every sender of an endpoint to one commit at a time.
   */
  void delivered(String id) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            UPDATE webhook_endpoints SET last_success_at = :now, failures_in_a_row = 0
            WHERE id = :id
              AND (failures_in_a_row > 0 OR last_success_at IS NULL
                   OR last_success_at < CAST(:now AS timestamptz) - interval '1 second')""")
        .bind("id", id)
        .bind("now", Timestamp.from(clock.instant()))
        .execute());
  }

  /** Notes a failed attempt and why (a status or the fetcher's reason, never a secret). */
  void failed(String id, String error) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            UPDATE webhook_endpoints SET last_failure_at = :now, last_failure = :error,
              failures_in_a_row = failures_in_a_row + 1
            WHERE id = :id""")
        .bind("id", id)
        .bind("error", error.length() > 500 ? error.substring(0, 500) : error)
        .bind("now", Timestamp.from(clock.instant()))
        .execute());
  }

  private void check(EndpointFields fields, boolean creating) {
    var problems = problems(fields, creating);
    if (!problems.isEmpty()) throw InvalidInputException.of(problems);
  }

  /**
   * What is wrong with {@code fields} for a new endpoint ({@code creating}) or a change, each with its
   * field: what {@link #create} and {@link #update} would refuse, for a form that shows it instead.
   */
  public List<Problem> problems(EndpointFields fields, boolean creating) {
    var problems = new ArrayList<Problem>();
    if (creating && fields.url().isEmpty()) problems.add(Problem.missing("url"));
    if (creating && list().size() >= MAX_ENDPOINTS)
      problems.add(
          Problem.of("an installation has at most " + MAX_ENDPOINTS + " webhook endpoints"));
    fields.url().flatMap(url -> urls.problem("url", url)).ifPresent(problems::add);
    fields
        .description()
        .filter(description -> description.length() > MAX_DESCRIPTION)
        .ifPresent(description -> problems.add(Problem.range(
            "description", "description must be at most " + MAX_DESCRIPTION + " characters")));
    return problems;
  }

  private static String[] typeNames(Set<CloudEventType> types) {
    return types.stream().map(CloudEventType::typeName).sorted().toArray(String[]::new);
  }

  private static byte[] randomBytes(int count) {
    byte[] bytes = new byte[count];
    ThreadLocalRandom.current().nextBytes(bytes);
    return bytes;
  }

  private static WebhookEndpoint endpoint(ResultSet rs) throws SQLException {
    var types = EnumSet.noneOf(CloudEventType.class);
    String[] names = (String[]) rs.getArray("event_types").getArray();
    // a type no longer told is no longer heard
    Arrays.stream(names).forEach(name -> CloudEventType.named(name).ifPresent(types::add));
    return new WebhookEndpoint(
        rs.getString("id"),
        URI.create(rs.getString("url")),
        rs.getString("description"),
        types,
        rs.getBoolean("enabled"),
        requireInstant(rs, "created_at"),
        requireInstant(rs, "updated_at"),
        instant(rs, "previous_until"),
        instant(rs, "last_success_at"),
        instant(rs, "last_failure_at"),
        rs.getString("last_failure"),
        rs.getInt("failures_in_a_row"));
  }

  private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
    Timestamp value = rs.getTimestamp(column);
    return value == null ? null : value.toInstant();
  }

  private static Instant requireInstant(ResultSet rs, String column) throws SQLException {
    Timestamp value = rs.getTimestamp(column);
    if (value == null) throw new SQLException(column + " is null");
    return value.toInstant();
  }
}
