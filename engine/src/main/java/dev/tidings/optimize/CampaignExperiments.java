package dev.tidings.optimize;

import dev.tidings.optimize.stats.Interval;
import dev.tidings.optimize.stats.Proportion;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * The record of campaign experiments (V19__experiments.sql, V20): the variant of each sent email, counts per
 * variant kept as emails are sent and as people open and click them, and each experiment's decision once
 * reached. {@link #report} reads the counts and decides ({@link ExperimentReport}).
 */
public final class CampaignExperiments {
  /** What converts: a person opening the email, or clicking in it. */
  public enum Goal {
    OPEN,
    CLICK
  }

  /** An experiment as the analysis needs it: its variants' names (control first), goal and level. */
  public record Plan(List<String> variants, Goal goal, double alpha) {
    public Plan {
      variants = List.copyOf(variants);
    }
  }

  private final Jdbi jdbi;
  private final InstantSource clock;

  private final Counter decided;
  private final Counter rolledOut;

  /**
   * Counting in {@code tidings_experiment_decisions_total{action}}: experiments that found
   * their winner ({@code decided}), and winners sent to the rest ({@code rolled_out}).
   */
  public CampaignExperiments(Jdbi jdbi, InstantSource clock, MeterRegistry metrics) {
    this.jdbi = jdbi;
    this.clock = clock;
    this.decided = decisions(metrics, "decided");
    this.rolledOut = decisions(metrics, "rolled_out");
  }

  public static final String DECISIONS = "tidings_experiment_decisions";

  private static Counter decisions(MeterRegistry metrics, String action) {
    return Counter.builder(DECISIONS)
        .description("Experiments that found their winner, and winners rolled out to the rest")
        .tag("action", action)
        .register(metrics);
  }

  /** Records a sent email of a variant (once, however often it is reported) and counts it. */
  public void sent(long campaignId, String messageId, String subscriberId, int variant) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            WITH fresh AS (
              INSERT INTO experiment_sends (message_id, campaign_id, subscriber_id, variant, sent_at)
              VALUES (:message, :campaign, :subscriber, :variant, :now)
              ON CONFLICT DO NOTHING RETURNING campaign_id, variant)
            INSERT INTO experiment_counts AS c (campaign_id, variant, shard, sent)
            SELECT campaign_id, variant, pg_backend_pid() % 8, 1 FROM fresh
            ON CONFLICT (campaign_id, variant, shard) DO UPDATE SET sent = c.sent + 1""")
        .bind("message", messageId)
        .bind("campaign", campaignId)
        .bind("subscriber", subscriberId)
        .bind("variant", (short) variant)
        .bind("now", Timestamp.from(clock.instant()))
        .execute());
  }

  /** Per variant, in order: emails sent and, of those, conversions on the goal. */
  public List<Proportion> results(long campaignId, int variants, Goal goal) {
    var counts = new long[variants][2];
    jdbi.useHandle(handle -> handle
        .createQuery("""
            SELECT variant, sum(sent) AS sent, sum(human_opened) AS human_opened,
                   sum(human_clicked) AS human_clicked
              FROM experiment_counts WHERE campaign_id = :campaign GROUP BY variant""")
        .bind("campaign", campaignId)
        .map((rows, context) -> {
          int variant = rows.getInt("variant");
          if (variant < variants) {
            long sent = rows.getLong("sent");
            long converted = rows.getLong(goal == Goal.OPEN ? "human_opened" : "human_clicked");
            // a conversion whose send record was lost still counts the email as seen
            counts[variant][0] = Math.max(sent, converted);
            counts[variant][1] = converted;
          }
          return variant;
        })
        .list());
    List<Proportion> out = new ArrayList<>(variants);
    for (long[] count : counts) out.add(Proportion.of(count[1], count[0]));
    return out;
  }

  /** The experiment's results with intervals, and its decision: kept from the first look that made it. */
  public ExperimentReport report(long campaignId, Plan plan) {
    var results = results(campaignId, plan.variants().size(), plan.goal());
    var report = ExperimentReport.of(plan, results, decided(campaignId));
    if (report.decision().isPresent() && decided(campaignId).isEmpty()) {
      var decision = report.decision().get();
      int inserted = jdbi.withHandle(handle -> handle
          .createUpdate("""
              INSERT INTO experiment_decisions
                (campaign_id, winner, decided_at, p_value, difference, low, high)
              VALUES (:campaign, :winner, :at, :p, :difference, :low, :high)
              ON CONFLICT DO NOTHING""")
          .bind("campaign", campaignId)
          .bind("winner", (short) decision.winner())
          .bind("at", Timestamp.from(clock.instant()))
          .bind("p", decision.pValue())
          .bind("difference", decision.difference())
          .bind("low", decision.interval().low())
          .bind("high", decision.interval().high())
          .execute());
      // the first look that decides counts it, whichever node it ran on
      if (inserted == 1) decided.increment();
      return ExperimentReport.of(plan, results, decided(campaignId));
    }
    return report;
  }

  /**
   * Runs {@code rollout} (which creates and starts the rollout's campaign and returns its id) unless the
   * decided experiment was rolled out already. The claim is its own statement, committed before the
   * rollout runs (its campaign must be visible to the workers that send it); a rollout that fails gives
   * the claim back.
   *
   * @return the rollout's campaign and whether it is new; empty while another request is rolling out
   */
  public Optional<RolledOut> rollOutOnce(long campaignId, LongSupplier rollout) {
    boolean claimed = jdbi.withHandle(handle -> handle
            .createUpdate("UPDATE experiment_decisions SET rollout_campaign_id = :claimed"
                + " WHERE campaign_id = :campaign AND rollout_campaign_id IS NULL")
            .bind("claimed", ROLLING_OUT)
            .bind("campaign", campaignId)
            .execute()
        == 1);
    if (!claimed) {
      long earlier = jdbi.withHandle(handle -> handle
          .createQuery("SELECT coalesce(rollout_campaign_id, 0) FROM experiment_decisions"
              + " WHERE campaign_id = :campaign")
          .bind("campaign", campaignId)
          .mapTo(Long.class)
          .findOne()
          .orElse(0L));
      return earlier > 0 ? Optional.of(new RolledOut(earlier, false)) : Optional.empty();
    }
    long created;
    try {
      created = rollout.getAsLong();
    } catch (RuntimeException e) {
      setRollout(campaignId, null);
      throw e;
    }
    setRollout(campaignId, created);
    rolledOut.increment();
    return Optional.of(new RolledOut(created, true));
  }

  /** Marks a rollout being made: no campaign has this id. */
  private static final long ROLLING_OUT = -1;

  private void setRollout(long campaignId, @Nullable Long rollout) {
    jdbi.useHandle(handle -> handle
        .createUpdate("UPDATE experiment_decisions SET rollout_campaign_id = :rollout"
            + " WHERE campaign_id = :campaign")
        .bind("rollout", rollout)
        .bind("campaign", campaignId)
        .execute());
  }

  /** The campaign that sends an A/B winner to the rest; {@code created} false when it existed. */
  public record RolledOut(long campaignId, boolean created) {}

  private Optional<ExperimentReport.Decided> decided(long campaignId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT * FROM experiment_decisions WHERE campaign_id = :campaign")
        .bind("campaign", campaignId)
        .map((rows, context) -> new ExperimentReport.Decided(
            rows.getInt("winner"),
            rows.getTimestamp("decided_at").toInstant(),
            rows.getDouble("p_value"),
            rows.getDouble("difference"),
            new Interval(rows.getDouble("low"), rows.getDouble("high"))))
        .findOne());
  }
}
