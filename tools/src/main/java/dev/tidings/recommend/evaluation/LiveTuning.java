package dev.tidings.recommend.evaluation;

import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.recommend.blend.AlgorithmSettings;
import dev.tidings.recommend.blend.RecommenderSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Chooses the live recommender's settings on the validation split: coordinate ascent over a few
 * knobs (each tried at every value of its grid while the others stay, the best kept), rounds until
 * none moves. Only what the history can say is tuned: an interaction file of purchases has no views,
 * brands, categories or follows, so the algorithms reading those keep their defaults.
 */
public final class LiveTuning {
  /** One thing tuned: an algorithm's weight ({@code "weight"}) or one of its parameters. */
  record Knob(Algorithm algorithm, String name, double[] values) {
    double of(RecommenderSettings settings) {
      AlgorithmSettings current = settings.of(algorithm);
      return name.equals("weight") ? current.weight() : current.param(algorithm, name);
    }

    RecommenderSettings set(RecommenderSettings settings, double value) {
      AlgorithmSettings current = settings.of(algorithm);
      if (name.equals("weight"))
        return settings.with(algorithm, new AlgorithmSettings(value > 0, value, current.params()));
      var params = new HashMap<>(current.params());
      params.put(name, value);
      return settings.with(
          algorithm, new AlgorithmSettings(current.enabled(), current.weight(), params));
    }

    String label() {
      return algorithm.id() + "." + name;
    }
  }

  /** One setting tried and its validation NDCG. */
  public record Trial(String knob, double value, double ndcg) {}

  /** The chosen settings, their validation NDCG and every trial on the way. */
  public record Result(
      Setting setting,
      List<Knob> knobs,
      RecommenderSettings settings,
      double ndcg,
      List<Trial> trials) {
    public String describe() {
      var out = new StringBuilder();
      for (Knob knob : knobs)
        out.append(String.format(Locale.ROOT, "%s=%s ", knob.label(), knob.of(settings)));
      return out.toString().trim();
    }
  }

  /** With bought products kept: buy-again's decay, and what weighs beside it. */
  static final List<Knob> KEPT = List.of(
      new Knob(Algorithm.BUY_AGAIN, "halfLifeMonths", new double[] {1, 3, 6, 12, 24}),
      new Knob(Algorithm.BUY_AGAIN, "repeatBonus", new double[] {0, 0.1, 0.25, 0.5, 1}),
      new Knob(Algorithm.POPULARITY, "weight", new double[] {0, 0.05, 0.1, 0.25, 0.5, 1}),
      new Knob(Algorithm.POPULARITY, "halfLifeDays", new double[] {3, 7, 14, 30, 60}),
      new Knob(Algorithm.POPULARITY, "windowDays", new double[] {14, 30, 60, 90}),
      new Knob(Algorithm.CO_OCCURRENCE, "weight", new double[] {0, 0.05, 0.1, 0.25, 0.5}),
      new Knob(Algorithm.EASE, "weight", new double[] {0, 0.05, 0.1, 0.25, 0.5}));

  /** With bought products excluded buy-again has nothing to offer: the weights of the others. */
  static final List<Knob> NEW_ONLY = List.of(
      new Knob(Algorithm.POPULARITY, "weight", new double[] {0, 0.02, 0.05, 0.1, 0.25, 0.5}),
      new Knob(Algorithm.CO_OCCURRENCE, "weight", new double[] {0, 0.05, 0.1, 0.25, 0.5, 1}),
      new Knob(Algorithm.EASE, "weight", new double[] {0, 0.05, 0.1, 0.25, 0.5, 1}));

  private static final int MAX_ROUNDS = 3;

  /** A gain below this is noise on a couple of thousand users: the earlier value stays. */
  private static final double MIN_GAIN = 1e-4;

  private LiveTuning() {}

  /**
   * From {@code start}, the settings with the best {@code ndcg} (mean validation NDCG of the live
   * answers under the settings given).
   */
  static Result tune(
      Setting setting,
      List<Knob> knobs,
      RecommenderSettings start,
      ToDoubleFunction<RecommenderSettings> ndcg) {
    var trials = new ArrayList<Trial>();
    RecommenderSettings best = start;
    double bestNdcg = ndcg.applyAsDouble(start);
    trials.add(new Trial("start", 0, bestNdcg));
    for (int round = 0; round < MAX_ROUNDS; round++) {
      boolean moved = false;
      for (Knob knob : knobs) {
        double current = knob.of(best);
        for (double value : knob.values()) {
          if (value == current) continue;
          RecommenderSettings tried = knob.set(best, value);
          double score = ndcg.applyAsDouble(tried);
          trials.add(new Trial(knob.label(), value, score));
          if (score > bestNdcg + MIN_GAIN) {
            best = tried;
            bestNdcg = score;
            moved = true;
          }
        }
      }
      if (!moved) break;
    }
    return new Result(setting, knobs, best, bestNdcg, trials);
  }
}
