package dev.tidings.recommend.evaluation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Everything one evaluation measured: one row per algorithm and setting, and how it was set up. */
public record EvaluationReport(
    int users,
    int items,
    long interactions,
    int testedUsers,
    int validationUsers,
    int k,
    Evaluation.Options options,
    double buyAgainHalfLifeDays,
    int easeItems,
    double easeInversionSeconds,
    List<BlendWeights> blendWeights,
    List<Row> rows,
    double seconds) {

  public EvaluationReport {
    blendWeights = List.copyOf(blendWeights);
    rows = List.copyOf(rows);
  }

  /** {@code metrics} is null where the algorithm cannot take part (buy-again with bought items excluded). */
  public record Row(
      String algorithm, Setting setting, @Nullable MetricsSummary metrics) {}

  /**
   * The blend's weights for one setting, as tuned on the validation split, and the NDCG they reached
   * there; buy-again's weight is multiplied per user by their repeat rate to {@code repeatRateExponent}.
   */
  public record BlendWeights(
      Setting setting, Map<String, Double> weights, int repeatRateExponent, double validationNdcg) {
    public BlendWeights {
      weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
    }
  }
}
