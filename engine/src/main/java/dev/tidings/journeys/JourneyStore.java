package dev.tidings.journeys;

import dev.tidings.Json;
import dev.tidings.PageLimit;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The journeys and their versions (tables {@code journeys}, {@code journey_versions}). Saving an edit
 * makes a new version, numbered one past the latest, and never changes an older one.
 */
public final class JourneyStore {
  /** One saved version of a journey. */
  public record Saved(long id, int version, Journey journey, Instant savedAt) {}

  /** A journey in a list: its latest version, and when it was first made. */
  public record Listed(
      long id,
      int latestVersion,
      String name,
      JourneyState state,
      Instant createdAt,
      Instant updatedAt) {}

  private final Jdbi jdbi;
  private final InstantSource clock;

  public JourneyStore(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  /** Saves a new journey as its version 1. */
  public Saved create(Journey journey) {
    Instant now = clock.instant();
    return jdbi.inTransaction(handle -> {
      long id = handle.createQuery("""
              INSERT INTO journeys (latest_version, created_at, updated_at)
              VALUES (1, :now, :now) RETURNING id""").bind("now", now).mapTo(Long.class).one();
      insertVersion(handle, id, 1, journey, now);
      return new Saved(id, 1, journey, now);
    });
  }

  /**
   * Saves {@code journey} as the next version of journey {@code id}; empty when there is no such
   * journey. Two edits at once each get a version of their own, one after the other.
   */
  public Optional<Saved> revise(long id, Journey journey) {
    Instant now = clock.instant();
    return jdbi.inTransaction(handle -> handle
        .createQuery("""
            UPDATE journeys SET latest_version = latest_version + 1, updated_at = :now
             WHERE id = :id RETURNING latest_version""")
        .bind("id", id)
        .bind("now", now)
        .mapTo(Integer.class)
        .findOne()
        .map(version -> {
          insertVersion(handle, id, version, journey, now);
          return new Saved(id, version, journey, now);
        }));
  }

  /** The latest version of journey {@code id}. */
  public Optional<Saved> latest(long id) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT v.journey_id, v.version, CAST(v.definition AS text) AS definition, v.saved_at
              FROM journeys j JOIN journey_versions v
                ON v.journey_id = j.id AND v.version = j.latest_version
             WHERE j.id = :id""")
        .bind("id", id)
        .map((rows, context) -> saved(rows))
        .findOne());
  }

  /** Version {@code version} of journey {@code id}, as it was saved. */
  public Optional<Saved> version(long id, int version) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT journey_id, version, CAST(definition AS text) AS definition, saved_at
              FROM journey_versions WHERE journey_id = :id AND version = :version""")
        .bind("id", id)
        .bind("version", version)
        .map((rows, context) -> saved(rows))
        .findOne());
  }

  /** A page of the journeys by their latest version, newest first, those before {@code after}. */
  public List<Listed> list(Optional<Long> after, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT j.id, j.latest_version, v.name, j.state, j.created_at, j.updated_at
              FROM journeys j JOIN journey_versions v
                ON v.journey_id = j.id AND v.version = j.latest_version
             WHERE j.id < :after
             ORDER BY j.id DESC LIMIT :limit""")
        .bind("after", after.orElse(Long.MAX_VALUE))
        .bind("limit", limit)
        .map((rows, context) -> new Listed(
            rows.getLong("id"),
            rows.getInt("latest_version"),
            rows.getString("name"),
            JourneyState.valueOf(rows.getString("state")),
            rows.getTimestamp("created_at").toInstant(),
            rows.getTimestamp("updated_at").toInstant()))
        .list());
  }

  /** A journey that is not a draft: its state and its latest version, which people enter. */
  public record Live(long id, JourneyState state, Saved latest) {}

  /** Every journey that is active, paused or draining, with its latest version. */
  public List<Live> live() {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT j.state, v.journey_id, v.version, CAST(v.definition AS text) AS definition,
                   v.saved_at
              FROM journeys j JOIN journey_versions v
                ON v.journey_id = j.id AND v.version = j.latest_version
             WHERE j.state <> 'DRAFT'""")
        .map((rows, context) -> new Live(
            rows.getLong("journey_id"), JourneyState.valueOf(rows.getString("state")), saved(rows)))
        .list());
  }

  /** The journey's state; empty when there is no such journey. */
  public Optional<JourneyState> state(long id) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT state FROM journeys WHERE id = :id")
        .bind("id", id)
        .mapTo(String.class)
        .findOne()
        .map(JourneyState::valueOf));
  }

  /**
   * Moves the journey to {@code to} when it is in one of {@code from}; answers its state after (the
   * same when it was not in one of them), empty when there is no such journey.
   */
  public Optional<JourneyState> changeState(long id, Set<JourneyState> from, JourneyState to) {
    return jdbi.inTransaction(handle -> {
      handle
          .createUpdate("""
              UPDATE journeys SET state = :to, updated_at = :now
               WHERE id = :id AND state = ANY(:from)""")
          .bind("to", to.name())
          .bind("now", clock.instant())
          .bind("id", id)
          .bindArray("from", String.class, from.stream().map(Enum::name).toList())
          .execute();
      return handle
          .createQuery("SELECT state FROM journeys WHERE id = :id")
          .bind("id", id)
          .mapTo(String.class)
          .findOne()
          .map(JourneyState::valueOf);
    });
  }

  private static void insertVersion(
      Handle handle, long id, int version, Journey journey, Instant now) {
    handle
        .createUpdate("""
            INSERT INTO journey_versions (journey_id, version, name, definition, saved_at)
            VALUES (:id, :version, :name, CAST(:definition AS jsonb), :now)""")
        .bind("id", id)
        .bind("version", version)
        .bind("name", journey.name())
        .bind("definition", JourneyJson.toJson(journey).toString())
        .bind("now", now)
        .execute();
  }

  private static Saved saved(ResultSet rows) throws SQLException {
    return new Saved(
        rows.getLong("journey_id"),
        rows.getInt("version"),
        JourneyJson.fromJson(Json.MAPPER.readTree(rows.getString("definition"))),
        rows.getTimestamp("saved_at").toInstant());
  }
}
