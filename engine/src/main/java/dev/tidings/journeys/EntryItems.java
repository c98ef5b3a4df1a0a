package dev.tidings.journeys;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * The products of the entry each email of a journey's step is sent for (the cart left behind, the
 * product back in stock) and why the reader sees them. Which runs are a journey's is remembered per
 * node, so a campaign's bulk run costs one look per node, not one per batch.
 */
public final class EntryItems {
  /** A recipient's entry products, and why: carted, viewed, bought, back_in_stock, price_dropped. */
  public record Items(List<String> productIds, String why) {}

  private record Run(long campaignId, long runId) {}

  private record StepRun(long journeyId, int entry) {}

  private final Jdbi jdbi;
  private final LiveJourneysView journeys;
  private final LoadingCache<Run, Optional<StepRun>> runs;

  /** What an entry's reason is read from: the journey's trigger. */
  @FunctionalInterface
  public interface LiveJourneysView {
    Optional<Trigger> trigger(long journeyId);
  }

  public EntryItems(Jdbi jdbi, LiveJourneysView journeys) {
    this.jdbi = jdbi;
    this.journeys = journeys;
    this.runs = Caffeine.newBuilder().maximumSize(100_000).build(this::stepRun);
  }

  /** The entry products of each recipient among {@code subscriberIds} who has any. */
  public Map<String, Items> of(long campaignId, long runId, Collection<String> subscriberIds) {
    Optional<StepRun> step = runs.get(new Run(campaignId, runId));
    if (step.isEmpty() || subscriberIds.isEmpty()) return Map.of();
    String why = journeys.trigger(step.get().journeyId()).map(EntryItems::why).orElse("");
    Map<String, Items> items = new HashMap<>();
    jdbi.useHandle(handle -> handle
        .createQuery("""
            SELECT subscriber_id, items FROM journey_instances
             WHERE journey_id = :journey AND entry = :entry AND subscriber_id = ANY(:people)
               AND cardinality(items) > 0""")
        .bind("journey", step.get().journeyId())
        .bind("entry", step.get().entry())
        .bindArray("people", String.class, List.copyOf(subscriberIds))
        .map((rows, context) -> Map.entry(
            rows.getString(1),
            new Items(Arrays.asList((String[]) rows.getArray(2).getArray()), why)))
        .forEach(row -> items.put(row.getKey(), row.getValue())));
    return items;
  }

  private Optional<StepRun> stepRun(Run run) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT journey_id, entry FROM journey_step_runs
             WHERE campaign_id = :campaign AND run_id = :run""")
        .bind("campaign", run.campaignId())
        .bind("run", run.runId())
        .map((rows, context) -> new StepRun(rows.getLong(1), rows.getInt(2)))
        .findOne());
  }

  static String why(Trigger trigger) {
    return switch (trigger) {
      case Trigger.Did did ->
        switch (did.activity()) {
          case "add_to_cart" -> "carted";
          case "purchase" -> "bought";
          default -> "viewed";
        };
      case Trigger.ProductNews news ->
        switch (news.news()) {
          case BACK_IN_STOCK -> "back_in_stock";
          case PRICE_DROPPED -> "price_dropped";
        };
      default -> "";
    };
  }
}
