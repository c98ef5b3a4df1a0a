package dev.tidings.journeys;

import dev.tidings.optimize.stats.Proportion;
import dev.tidings.optimize.stats.SequentialTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * A journey's live figures: who entered, where the people inside are, how they left, what each send
 * step sent and what came of it, and the lift: the goal's conversions within {@link
 * EntryListener#ATTRIBUTION} of entering, of the people sent the emails against those held out, with
 * the always-valid test the experiments use (so looking every minute does not make a false winner).
 */
public final class JourneyFigures {
  /** The test's level, and the size of the difference in conversion rate it is most sensitive to. */
  static final double ALPHA = 0.05;

  static final double TAU = 0.02;

  private final Jdbi jdbi;
  private final StepSender sender;

  public JourneyFigures(Jdbi jdbi, StepSender sender) {
    this.jdbi = jdbi;
    this.sender = sender;
  }

  /**
   * One step's people and sends: {@code sent} the people it sent to, {@code heldOut} those held out
   * it would have sent to, and {@code emails} what the ledger says became of the emails.
   */
  public record StepFigures(
      String step,
      long inside,
      long sent,
      long heldOut,
      long opened,
      long clicked,
      StepSender.Outcomes emails,
      Optional<Lift> lift) {}

  /** Conversions of the people sent the emails against those held out. */
  public record Lift(
      Proportion sent,
      Proportion heldOut,
      double difference,
      double low,
      double high,
      double pValue,
      boolean significant) {}

  public record Figures(
      long entries,
      long inside,
      Map<String, Long> exits,
      List<StepFigures> steps,
      @Nullable String goal,
      Optional<Lift> lift) {}

  /**
   * The figures of journey {@code id}, step by step of its latest version (people still on a step an
   * older version had and the latest has not are counted in {@code inside}, not under a step).
   */
  public Figures of(long id, Journey journey) {
    return jdbi.withHandle(handle -> {
      record Row(String key, long count) {}
      long entries = handle
          .createQuery("SELECT count(*) FROM journey_instances WHERE journey_id = :id")
          .bind("id", id)
          .mapTo(Long.class)
          .one();
      Map<String, Long> inside = new HashMap<>();
      handle
          .createQuery("""
              SELECT at_step, count(*) FROM journey_instances
               WHERE journey_id = :id AND exited_at IS NULL GROUP BY at_step""")
          .bind("id", id)
          .map((rows, context) -> new Row(rows.getString(1), rows.getLong(2)))
          .forEach(row -> inside.put(row.key(), row.count()));
      Map<String, Long> exits = new LinkedHashMap<>();
      handle
          .createQuery("""
              SELECT exit_reason, count(*) FROM journey_instances
               WHERE journey_id = :id AND exited_at IS NOT NULL
               GROUP BY exit_reason ORDER BY exit_reason""")
          .bind("id", id)
          .map((rows, context) -> new Row(rows.getString(1), rows.getLong(2)))
          .forEach(row -> exits.put(row.key(), row.count()));
      Map<String, long[]> sends = new HashMap<>();
      handle
          .createQuery("""
              SELECT s.step, count(*) FILTER (WHERE NOT s.held_out),
                     count(*) FILTER (WHERE s.held_out),
                     count(*) FILTER (WHERE EXISTS (SELECT 1 FROM journey_facts f
                       WHERE f.journey_id = s.journey_id AND f.subscriber_id = s.subscriber_id
                         AND f.entry = s.entry AND f.fact = 'email.opened:' || s.step)),
                     count(*) FILTER (WHERE EXISTS (SELECT 1 FROM journey_facts f
                       WHERE f.journey_id = s.journey_id AND f.subscriber_id = s.subscriber_id
                         AND f.entry = s.entry AND f.fact = 'email.clicked:' || s.step))
                FROM journey_sends s WHERE s.journey_id = :id GROUP BY s.step""")
          .bind("id", id)
          .map((rows, context) -> Map.entry(
              rows.getString(1),
              new long[] {rows.getLong(2), rows.getLong(3), rows.getLong(4), rows.getLong(5)}))
          .forEach(row -> sends.put(row.getKey(), row.getValue()));
      Map<String, StepSender.Outcomes> emails = new HashMap<>();
      handle
          .createQuery(
              "SELECT step, campaign_id, run_id FROM journey_step_runs WHERE journey_id = :id")
          .bind("id", id)
          .map((rows, context) -> Map.entry(
              rows.getString(1),
              sender.outcomes(rows.getLong(2), rows.getLong(3)).orElse(StepSender.Outcomes.NONE)))
          .forEach(row -> emails.merge(row.getKey(), row.getValue(), StepSender.Outcomes::plus));
      // a send step's lift: of the entrants who reached it, those sent its email against those held
      // out, converted between reaching it and the end of their attribution window
      Map<String, long[]> stepLifts = new HashMap<>();
      String goalOfSteps = journey.goal();
      if (goalOfSteps != null)
        handle
            .createQuery("""
                SELECT s.step,
                       count(*) FILTER (WHERE NOT s.held_out AND c.converted),
                       count(*) FILTER (WHERE NOT s.held_out),
                       count(*) FILTER (WHERE s.held_out AND c.converted),
                       count(*) FILTER (WHERE s.held_out)
                  FROM journey_sends s
                  JOIN journey_instances i ON i.journey_id = s.journey_id
                   AND i.subscriber_id = s.subscriber_id AND i.entry = s.entry
                  CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM journey_facts f
                     WHERE f.journey_id = s.journey_id AND f.subscriber_id = s.subscriber_id
                       AND f.entry = s.entry AND f.fact = :goal AND f.at >= s.at
                       AND f.at < i.entered_at + make_interval(secs => :window)) AS converted) c
                 WHERE s.journey_id = :id GROUP BY s.step""")
            .bind("id", id)
            .bind("goal", goalOfSteps)
            .bind("window", (double) EntryListener.ATTRIBUTION.toSeconds())
            .map((rows, context) -> Map.entry(
                rows.getString(1),
                new long[] {rows.getLong(2), rows.getLong(3), rows.getLong(4), rows.getLong(5)}))
            .forEach(row -> stepLifts.put(row.getKey(), row.getValue()));
      List<StepFigures> steps = new ArrayList<>();
      for (Step step : journey.steps()) {
        long[] stepLift = stepLifts.get(step.id());
        long[] sent = sends.getOrDefault(step.id(), new long[4]);
        steps.add(new StepFigures(
            step.id(),
            inside.getOrDefault(step.id(), 0L),
            sent[0],
            sent[1],
            sent[2],
            sent[3],
            emails.getOrDefault(step.id(), StepSender.Outcomes.NONE),
            stepLift == null
                ? Optional.empty()
                : Optional.of(lift(
                    Proportion.of(stepLift[0], stepLift[1]),
                    Proportion.of(stepLift[2], stepLift[3])))));
      }
      long insideAll = inside.values().stream().mapToLong(Long::longValue).sum();
      Optional<Lift> lift = Optional.empty();
      String goal = journey.goal();
      if (goal != null) {
        // every entrant on both sides: the two sides enter alike over time, so windows still open
        // weigh on both alike
        Map<Boolean, long[]> groups = new HashMap<>();
        handle
            .createQuery("""
                SELECT i.held_out,
                       count(*) FILTER (WHERE c.converted) AS converted,
                       count(*) AS entrants
                  FROM journey_instances i
                  CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM journey_facts f
                     WHERE f.journey_id = i.journey_id AND f.subscriber_id = i.subscriber_id
                       AND f.entry = i.entry AND f.fact = :goal
                       AND f.at < i.entered_at + make_interval(secs => :window)) AS converted) c
                 WHERE i.journey_id = :id GROUP BY i.held_out""")
            .bind("id", id)
            .bind("goal", goal)
            .bind("window", (double) EntryListener.ATTRIBUTION.toSeconds())
            .map((rows, context) ->
                Map.entry(rows.getBoolean(1), new long[] {rows.getLong(2), rows.getLong(3)}))
            .forEach(row -> groups.put(row.getKey(), row.getValue()));
        long[] treated = groups.getOrDefault(false, new long[2]);
        long[] control = groups.getOrDefault(true, new long[2]);
        lift = Optional.of(
            lift(Proportion.of(treated[0], treated[1]), Proportion.of(control[0], control[1])));
      }
      return new Figures(entries, insideAll, exits, steps, goal, lift);
    });
  }

  static Lift lift(Proportion sent, Proportion heldOut) {
    var look = new SequentialTest(ALPHA, TAU).look(heldOut, sent);
    return new Lift(
        sent,
        heldOut,
        look.difference(),
        look.interval().low(),
        look.interval().high(),
        look.pValue(),
        look.pValue() < ALPHA);
  }

  /** How long a window of attribution is, for the API to say. */
  public static Duration attribution() {
    return EntryListener.ATTRIBUTION;
  }
}
