package dev.tidings.journeys;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;

/**
 * The people in journeys (V48's {@code journey_instances}, {@code journey_facts}, {@code
 * journey_sends}, {@code journey_step_runs}, {@code journey_signals}): set-based where a batch allows,
 * and every move of a person conditional on where they were, so a repeated look moves them once.
 */
final class InstanceTable {
  private InstanceTable() {}

  /** What entry rules ask of a person's past in one journey. */
  record Past(boolean inside, int entries, Optional<Instant> lastEntry) {
    static final Past NONE = new Past(false, 0, Optional.empty());
  }

  static Past past(Handle handle, long journeyId, String subscriberId) {
    return handle
        .createQuery("""
            SELECT bool_or(exited_at IS NULL) AS inside, max(entry) AS entries,
                   max(entered_at) AS last
              FROM journey_instances WHERE journey_id = :journey AND subscriber_id = :subscriber""")
        .bind("journey", journeyId)
        .bind("subscriber", subscriberId)
        .map((rows, context) -> {
          Timestamp last = rows.getTimestamp("last");
          return last == null
              ? Past.NONE
              : new Past(
                  rows.getBoolean("inside"), rows.getInt("entries"), Optional.of(last.toInstant()));
        })
        .one();
  }

  /** Adds the person's entry; false when another entry of theirs got in first. */
  static boolean enter(Handle handle, Instance instance, Instant due) {
    return handle
            .createUpdate("""
                INSERT INTO journey_instances (journey_id, subscriber_id, entry, version,
                    entered_at, held_out, items, at_step, since, due_at)
                VALUES (:journey, :subscriber, :entry, :version, :entered, :heldOut, :items, :at,
                    :since, :due)
                ON CONFLICT DO NOTHING""")
            .bind("journey", instance.journeyId())
            .bind("subscriber", instance.subscriberId())
            .bind("entry", instance.entry())
            .bind("version", instance.version())
            .bind("entered", Timestamp.from(instance.enteredAt()))
            .bind("heldOut", instance.heldOut())
            .bindArray("items", String.class, instance.items())
            .bind("at", instance.at())
            .bind("since", Timestamp.from(instance.since()))
            .bind("due", Timestamp.from(due))
            .execute()
        == 1;
  }

  /** An entry inside its journey, and when it is next due to be looked at. */
  record Inside(Instance instance, @Nullable Instant due) {}

  /** The entries among {@code keys} that are still inside their journey. */
  static Map<Due.Key, Inside> inside(Handle handle, Collection<Due.Key> keys) {
    if (keys.isEmpty()) return Map.of();
    var columns = KeyColumns.of(keys);
    Map<Due.Key, Inside> inside = new HashMap<>();
    handle
        .createQuery("""
            SELECT i.* FROM unnest(:journeys, :people, :entries) AS k (journey, subscriber, entry)
              JOIN journey_instances i ON i.journey_id = k.journey
               AND i.subscriber_id = k.subscriber AND i.entry = k.entry
             WHERE i.exited_at IS NULL""")
        .bindArray("journeys", Long.class, columns.journeys())
        .bindArray("people", String.class, columns.people())
        .bindArray("entries", Integer.class, columns.entries())
        .map((rows, context) -> {
          Timestamp due = rows.getTimestamp("due_at");
          return new Inside(instance(rows), due == null ? null : due.toInstant());
        })
        .forEach(row -> inside.put(key(row.instance()), row));
    return inside;
  }

  /** Entries' keys as three columns, for one statement to unnest. */
  private record KeyColumns(List<Long> journeys, List<String> people, List<Integer> entries) {
    static KeyColumns of(Collection<Due.Key> keys) {
      var columns = new KeyColumns(
          new ArrayList<>(keys.size()), new ArrayList<>(keys.size()), new ArrayList<>(keys.size()));
      for (Due.Key key : keys) {
        columns.journeys().add(key.journeyId());
        columns.people().add(key.subscriberId());
        columns.entries().add(key.entry());
      }
      return columns;
    }
  }

  static Due.Key key(Instance instance) {
    return new Due.Key(instance.journeyId(), instance.subscriberId(), instance.entry());
  }

  /** A person moved from where {@code from} says they were to {@code to}, looked at again at {@code due}. */
  record Move(Instance from, Instance to, Instant due) {}

  /** A person taken out at {@code step} from where {@code from} says they were. */
  record Exit(Instance from, String step, String reason) {}

  /**
   * Moves each person from where they were to where their move says, each only if they were still
   * there (another look may have moved them first); answers those moved.
   */
  static Set<Due.Key> moveAll(Handle handle, List<Move> moves) {
    if (moves.isEmpty()) return Set.of();
    int n = moves.size();
    var journeys = new ArrayList<Long>(n);
    var people = new ArrayList<String>(n);
    var entries = new ArrayList<Integer>(n);
    var wasAt = new ArrayList<String>(n);
    var wasSince = new ArrayList<String>(n);
    var at = new ArrayList<String>(n);
    var since = new ArrayList<String>(n);
    var due = new ArrayList<String>(n);
    for (Move move : moves) {
      journeys.add(move.from().journeyId());
      people.add(move.from().subscriberId());
      entries.add(move.from().entry());
      wasAt.add(move.from().at());
      wasSince.add(move.from().since().toString());
      at.add(move.to().at());
      since.add(move.to().since().toString());
      due.add(move.due().toString());
    }
    Set<Due.Key> moved = new HashSet<>();
    handle
        .createQuery("""
            UPDATE journey_instances i SET at_step = m.at, since = m.since, due_at = m.due
              FROM unnest(:journeys, :people, :entries, :wasAt,
                          CAST(:wasSince AS timestamptz[]), :at, CAST(:since AS timestamptz[]),
                          CAST(:due AS timestamptz[]))
                AS m (journey, subscriber, entry, was_at, was_since, at, since, due)
             WHERE i.journey_id = m.journey AND i.subscriber_id = m.subscriber
               AND i.entry = m.entry AND i.exited_at IS NULL
               AND i.at_step = m.was_at AND i.since = m.was_since
            RETURNING i.journey_id, i.subscriber_id, i.entry""")
        .bindArray("journeys", Long.class, journeys)
        .bindArray("people", String.class, people)
        .bindArray("entries", Integer.class, entries)
        .bindArray("wasAt", String.class, wasAt)
        .bindArray("wasSince", String.class, wasSince)
        .bindArray("at", String.class, at)
        .bindArray("since", String.class, since)
        .bindArray("due", String.class, due)
        .map((rows, context) -> new Due.Key(rows.getLong(1), rows.getString(2), rows.getInt(3)))
        .forEach(moved::add);
    return moved;
  }

  /** Takes each person out where their exit says, each only if still where it found them. */
  static Set<Due.Key> exitAll(Handle handle, List<Exit> exits, Instant now) {
    if (exits.isEmpty()) return Set.of();
    int n = exits.size();
    var journeys = new ArrayList<Long>(n);
    var people = new ArrayList<String>(n);
    var entries = new ArrayList<Integer>(n);
    var wasAt = new ArrayList<String>(n);
    var wasSince = new ArrayList<String>(n);
    var steps = new ArrayList<String>(n);
    var reasons = new ArrayList<String>(n);
    for (Exit exit : exits) {
      journeys.add(exit.from().journeyId());
      people.add(exit.from().subscriberId());
      entries.add(exit.from().entry());
      wasAt.add(exit.from().at());
      wasSince.add(exit.from().since().toString());
      steps.add(exit.step());
      reasons.add(exit.reason());
    }
    Set<Due.Key> exited = new HashSet<>();
    handle
        .createQuery("""
            UPDATE journey_instances i
               SET at_step = x.step, exited_at = :now, exit_reason = x.reason, due_at = NULL
              FROM unnest(:journeys, :people, :entries, :wasAt,
                          CAST(:wasSince AS timestamptz[]), :steps, :reasons)
                AS x (journey, subscriber, entry, was_at, was_since, step, reason)
             WHERE i.journey_id = x.journey AND i.subscriber_id = x.subscriber
               AND i.entry = x.entry AND i.exited_at IS NULL
               AND i.at_step = x.was_at AND i.since = x.was_since
            RETURNING i.journey_id, i.subscriber_id, i.entry""")
        .bind("now", Timestamp.from(now))
        .bindArray("journeys", Long.class, journeys)
        .bindArray("people", String.class, people)
        .bindArray("entries", Integer.class, entries)
        .bindArray("wasAt", String.class, wasAt)
        .bindArray("wasSince", String.class, wasSince)
        .bindArray("steps", String.class, steps)
        .bindArray("reasons", String.class, reasons)
        .map((rows, context) -> new Due.Key(rows.getLong(1), rows.getString(2), rows.getInt(3)))
        .forEach(exited::add);
    return exited;
  }

  /** What the entries did since they entered, by entry: fact name to the times it happened. */
  static Map<Due.Key, List<Fact>> facts(Handle handle, Collection<Due.Key> keys) {
    if (keys.isEmpty()) return Map.of();
    var columns = KeyColumns.of(keys);
    Map<Due.Key, List<Fact>> facts = new HashMap<>();
    handle
        .createQuery("""
            SELECT f.journey_id, f.subscriber_id, f.entry, f.fact, f.at
              FROM unnest(:journeys, :people, :entries) AS k (journey, subscriber, entry)
              JOIN journey_facts f ON f.journey_id = k.journey
               AND f.subscriber_id = k.subscriber AND f.entry = k.entry""")
        .bindArray("journeys", Long.class, columns.journeys())
        .bindArray("people", String.class, columns.people())
        .bindArray("entries", Integer.class, columns.entries())
        .map((rows, context) -> Map.entry(
            new Due.Key(rows.getLong(1), rows.getString(2), rows.getInt(3)),
            new Fact(rows.getString(4), rows.getTimestamp(5).toInstant())))
        .forEach(row ->
            facts.computeIfAbsent(row.getKey(), key -> new ArrayList<>()).add(row.getValue()));
    return facts;
  }

  /** Something an entrant did that their journey asks about: an activity, or opened or clicked. */
  record Fact(String name, Instant at) {
    static final String OPENED = "email.opened";
    static final String CLICKED = "email.clicked";
  }

  /**
   * Records that the person did {@code fact} at {@code at}, for each of their entries into the
   * journeys {@code journeyIds} made at or before then and since {@code enteredSince} (inside or out:
   * a conversion after the last step still counts within the attribution window).
   */
  static void recordFact(
      Handle handle,
      String subscriberId,
      String fact,
      Instant at,
      Collection<Long> journeyIds,
      Instant enteredSince) {
    if (journeyIds.isEmpty()) return;
    handle
        .createUpdate("""
            INSERT INTO journey_facts (journey_id, subscriber_id, entry, fact, at)
            SELECT journey_id, subscriber_id, entry, :fact, :at FROM journey_instances
             WHERE subscriber_id = :subscriber AND journey_id = ANY(:journeys)
               AND entered_at <= :at AND entered_at >= :since
            ON CONFLICT DO NOTHING""")
        .bind("fact", fact)
        .bind("at", Timestamp.from(at))
        .bind("subscriber", subscriberId)
        .bindArray("journeys", Long.class, List.copyOf(journeyIds))
        .bind("since", Timestamp.from(enteredSince))
        .execute();
  }

  /**
   * Records an open or click of the email a journey's step sent in (campaign, run), named with its
   * step ({@code email.opened:reminder}) so that each step's funnel counts its own email.
   */
  static void recordEmailFact(
      Handle handle, long campaignId, long runId, String subscriberId, String fact, Instant at) {
    handle
        .createUpdate("""
            INSERT INTO journey_facts (journey_id, subscriber_id, entry, fact, at)
            SELECT r.journey_id, :subscriber, r.entry, :fact || ':' || r.step, :at
              FROM journey_step_runs r
              JOIN journey_instances i ON i.journey_id = r.journey_id
               AND i.subscriber_id = :subscriber AND i.entry = r.entry
             WHERE r.campaign_id = :campaign AND r.run_id = :run
            ON CONFLICT DO NOTHING""")
        .bind("subscriber", subscriberId)
        .bind("fact", fact)
        .bind("at", Timestamp.from(at))
        .bind("campaign", campaignId)
        .bind("run", runId)
        .execute();
  }

  /**
   * Makes the person's open entries into these journeys due now (their goal may be done), so the
   * message that says so is not taken for a stale one; answers them.
   */
  static List<Due.Key> wakeInside(
      Handle handle, String subscriberId, Collection<Long> journeyIds, Instant now) {
    if (journeyIds.isEmpty()) return List.of();
    return handle
        .createQuery("""
            UPDATE journey_instances SET due_at = :now
             WHERE subscriber_id = :subscriber AND journey_id = ANY(:journeys)
               AND exited_at IS NULL
            RETURNING journey_id, subscriber_id, entry""")
        .bind("now", Timestamp.from(now))
        .bind("subscriber", subscriberId)
        .bindArray("journeys", Long.class, List.copyOf(journeyIds))
        .map((rows, context) -> new Due.Key(rows.getLong(1), rows.getString(2), rows.getInt(3)))
        .list();
  }

  /** The run that carries one send step's emails for one entry number. */
  record StepRun(long journeyId, String step, int entry, long campaignId, long runId) {}

  /** Remembers the runs the steps use, so their opens and clicks find the entries. */
  static void rememberRuns(Handle handle, List<StepRun> runs) {
    if (runs.isEmpty()) return;
    var journeys = new ArrayList<Long>();
    var steps = new ArrayList<String>();
    var entries = new ArrayList<Integer>();
    var campaigns = new ArrayList<Long>();
    var ids = new ArrayList<Long>();
    for (StepRun run : new java.util.LinkedHashSet<>(runs)) {
      journeys.add(run.journeyId());
      steps.add(run.step());
      entries.add(run.entry());
      campaigns.add(run.campaignId());
      ids.add(run.runId());
    }
    handle
        .createUpdate("""
            INSERT INTO journey_step_runs (journey_id, step, entry, campaign_id, run_id)
            SELECT * FROM unnest(:journeys, :steps, :entries, :campaigns, :runs)
            ON CONFLICT DO NOTHING""")
        .bindArray("journeys", Long.class, journeys)
        .bindArray("steps", String.class, steps)
        .bindArray("entries", Integer.class, entries)
        .bindArray("campaigns", Long.class, campaigns)
        .bindArray("runs", Long.class, ids)
        .execute();
  }

  /** A send step an entrant passed, and its run (none when they are held out). */
  record SendRow(
      Instance instance, Step.Send step, @Nullable Long runId) {}

  /** Records the steps' sends (or, held out, what would have been sent); a repeat changes nothing. */
  static void recordSends(Handle handle, List<SendRow> rows, Instant at) {
    if (rows.isEmpty()) return;
    int n = rows.size();
    var journeys = new ArrayList<Long>(n);
    var people = new ArrayList<String>(n);
    var entries = new ArrayList<Integer>(n);
    var steps = new ArrayList<String>(n);
    var campaigns = new ArrayList<Long>(n);
    var runs = new ArrayList<@Nullable Long>(n);
    var heldOut = new ArrayList<Boolean>(n);
    for (SendRow row : rows) {
      journeys.add(row.instance().journeyId());
      people.add(row.instance().subscriberId());
      entries.add(row.instance().entry());
      steps.add(row.step().id());
      campaigns.add(row.step().campaignId());
      runs.add(row.runId());
      heldOut.add(row.instance().heldOut());
    }
    handle
        .createUpdate("""
            INSERT INTO journey_sends (journey_id, subscriber_id, entry, step, campaign_id,
                run_id, held_out, at)
            SELECT j, p, e, s, c, r, h, :at
              FROM unnest(:journeys, :people, :entries, :steps, :campaigns, :runs, :heldOut)
                AS x (j, p, e, s, c, r, h)
            ON CONFLICT DO NOTHING""")
        .bindArray("journeys", Long.class, journeys)
        .bindArray("people", String.class, people)
        .bindArray("entries", Integer.class, entries)
        .bindArray("steps", String.class, steps)
        .bindArray("campaigns", Long.class, campaigns)
        .bindArray("runs", Long.class, runs)
        .bindArray("heldOut", Boolean.class, heldOut)
        .bind("at", Timestamp.from(at))
        .execute();
  }

  /** Each person's journey sends since {@code since}: message (campaign, run) and when. */
  record JourneySend(String subscriberId, long campaignId, long runId, Instant at) {}

  static List<JourneySend> sendsSince(Handle handle, Collection<String> people, Instant since) {
    if (people.isEmpty()) return List.of();
    return handle
        .createQuery("""
            SELECT subscriber_id, campaign_id, run_id, at FROM journey_sends
             WHERE subscriber_id = ANY(:people) AND at >= :since AND NOT held_out
               AND run_id IS NOT NULL""")
        .bindArray("people", String.class, List.copyOf(people))
        .bind("since", Timestamp.from(since))
        .map((rows, context) -> new JourneySend(
            rows.getString(1),
            rows.getLong(2),
            rows.getLong(3),
            rows.getTimestamp(4).toInstant()))
        .list();
  }

  /** Remembers an activity a trigger counts or names. */
  static void recordSignal(
      Handle handle, String subscriberId, String activity, String itemId, Instant at) {
    handle
        .createUpdate("""
            INSERT INTO journey_signals (subscriber_id, activity, item_id, at)
            VALUES (:subscriber, :activity, :item, :at)""")
        .bind("subscriber", subscriberId)
        .bind("activity", activity)
        .bind("item", itemId)
        .bind("at", Timestamp.from(at))
        .execute();
  }

  /** How many times the person did the activity to the item since {@code since}. */
  static int signals(
      Handle handle, String subscriberId, String activity, String itemId, Instant since) {
    return handle
        .createQuery("""
            SELECT count(*) FROM journey_signals WHERE subscriber_id = :subscriber
               AND activity = :activity AND item_id = :item AND at >= :since""")
        .bind("subscriber", subscriberId)
        .bind("activity", activity)
        .bind("item", itemId)
        .bind("since", Timestamp.from(since))
        .mapTo(Integer.class)
        .one();
  }

  /** The people who did one of {@code activities} to the item since {@code since}. */
  static List<String> interested(
      Handle handle, String itemId, Collection<String> activities, Instant since) {
    return handle
        .createQuery("""
            SELECT DISTINCT subscriber_id FROM journey_signals
             WHERE item_id = :item AND activity = ANY(:activities) AND at >= :since""")
        .bind("item", itemId)
        .bindArray("activities", String.class, List.copyOf(activities))
        .bind("since", Timestamp.from(since))
        .mapTo(String.class)
        .list();
  }

  /** Removes a person from every journey table: their entries, facts, sends and signals. */
  static void erase(Handle handle, String subscriberId) {
    handle
        .createUpdate("DELETE FROM journey_instances WHERE subscriber_id = :subscriber")
        .bind("subscriber", subscriberId)
        .execute();
    handle
        .createUpdate("DELETE FROM journey_signals WHERE subscriber_id = :subscriber")
        .bind("subscriber", subscriberId)
        .execute();
  }

  /** Signals older than {@code before}, which no trigger counts any more. */
  static int forgetSignals(Handle handle, Instant before, int limit) {
    return handle
        .createUpdate("""
            DELETE FROM journey_signals WHERE ctid = ANY(ARRAY(
              SELECT ctid FROM journey_signals WHERE at < :before LIMIT :limit))""")
        .bind("before", Timestamp.from(before))
        .bind("limit", limit)
        .execute();
  }

  /** Entries of active or draining journeys that were due long ago: their message was lost. */
  static List<Due> overdue(Handle handle, Instant before, Instant now, int limit) {
    return handle
        .createQuery("""
            WITH lost AS (
              SELECT i.journey_id, i.subscriber_id, i.entry FROM journey_instances i
                JOIN journeys j ON j.id = i.journey_id AND j.state IN ('ACTIVE', 'DRAINING')
               WHERE i.exited_at IS NULL AND i.due_at < :before
               ORDER BY i.due_at LIMIT :limit
               FOR UPDATE OF i SKIP LOCKED)
            UPDATE journey_instances i SET due_at = :now FROM lost
             WHERE i.journey_id = lost.journey_id AND i.subscriber_id = lost.subscriber_id
               AND i.entry = lost.entry
            RETURNING i.journey_id, i.subscriber_id, i.entry""")
        .bind("before", Timestamp.from(before))
        .bind("now", Timestamp.from(now))
        .bind("limit", limit)
        .map((rows, context) -> new Due(rows.getLong(1), rows.getString(2), rows.getInt(3), now))
        .list();
  }

  private static Instance instance(ResultSet rows) throws SQLException {
    return new Instance(
        rows.getLong("journey_id"),
        rows.getInt("version"),
        rows.getString("subscriber_id"),
        rows.getInt("entry"),
        rows.getTimestamp("entered_at").toInstant(),
        rows.getBoolean("held_out"),
        Arrays.asList((String[]) rows.getArray("items").getArray()),
        rows.getString("at_step"),
        rows.getTimestamp("since").toInstant());
  }
}
