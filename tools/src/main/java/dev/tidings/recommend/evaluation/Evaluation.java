package dev.tidings.recommend.evaluation;

import dev.tidings.recommend.blend.BlendSettings;
import dev.tidings.recommend.blend.RecommenderSettings;
import dev.tidings.recommend.evaluation.EvaluationReport.BlendWeights;
import dev.tidings.recommend.evaluation.EvaluationReport.Row;
import dev.tidings.recommend.evaluation.HoldoutSplit.Holdout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * The whole protocol: hold out each user's last basket for the test; carve a validation split out of
 * the training rows the same way (each user's last training basket) and tune there only (buy-again's
 * half-life, the blend's weights, per setting); then fit every algorithm on all training rows and rank
 * the whole catalogue for each tested user, with bought items kept and excluded.
 */
public final class Evaluation {
  /** The blend's weight grid per part; buy-again's weight stays 1 where it takes part (scale is relative). */
  private static final double[] WEIGHT_GRID = {0, 0.02, 0.05, 0.1, 0.25, 0.5, 1};

  private static final double[] HALF_LIFE_GRID_DAYS = {14, 30, 90, 180, 365, 730};

  /** Settings of the algorithms; {@link #defaults()} are the values the docs report. */
  public record Options(
      int k,
      double popularityHalfLifeDays,
      int neighbours,
      double easeLambda,
      int easeMinUsers,
      int easeMaxItems) {
    public static Options defaults() {
      return new Options(10, 30, 50, 300, 5, 2500);
    }
  }

  private final Options options;
  private final EvaluationProgress progress;

  public Evaluation(Options options, EvaluationProgress progress) {
    this.options = options;
    this.progress = progress;
  }

  /** A user to rank for, and the basket items that count as hits. */
  private record Case(int user, int[] relevant) {}

  public EvaluationReport run(Interactions all) {
    long start = System.nanoTime();
    HoldoutSplit test = HoldoutSplit.of(all);
    HoldoutSplit validation = HoldoutSplit.of(test.training());

    // tuning, on the validation split only
    UserItems validationHistory = validation.training().userItems();
    double halfLife = tuneBuyAgainHalfLife(validation, validationHistory);
    List<Algorithm> algorithms = algorithms(halfLife);
    List<Algorithm.Model> validationModels =
        fitAll(algorithms, validation.training(), "fit (validation)");
    List<BlendWeights> weights = new ArrayList<>();
    for (Setting setting : Setting.values()) {
      weights.add(tuneBlend(
          algorithms,
          validationModels,
          RepeatRate.relativeToEverybody(validation.training()),
          cases(validation.holdouts(), validationHistory, setting),
          validationHistory,
          setting));
    }

    // the test, fitted on all training rows
    UserItems history = test.training().userItems();
    List<Algorithm.Model> models = new ArrayList<>();
    Ease.Fitted ease = null;
    try (var step = progress.start("fit", algorithms.size(), "algorithms")) {
      for (int at = 0; at < algorithms.size(); at++) {
        if (algorithms.get(at) instanceof Ease e) {
          ease = e.fitMeasured(test.training());
          models.add(ease.model());
        } else {
          models.add(algorithms.get(at).fit(test.training()));
        }
        step.stepTo(at + 1);
      }
    }
    double[] repeatRate = RepeatRate.relativeToEverybody(test.training());
    int catalogue = 0;
    for (int item = 0; item < all.itemCount(); item++) if (history.usersOf(item) > 0) catalogue++;
    List<Row> rows = new ArrayList<>();
    for (Setting setting : Setting.values()) {
      List<Case> cases = cases(test.holdouts(), history, setting);
      for (int at = 0; at < algorithms.size(); at++) {
        Algorithm algorithm = algorithms.get(at);
        boolean applicable = !(algorithm instanceof BuyAgain && setting == Setting.EXCLUDED);
        rows.add(new Row(
            algorithm.name(),
            setting,
            applicable
                ? measure(algorithm.name(), models.get(at), cases, history, setting, catalogue)
                : null));
      }
      BlendWeights tuned = weights.get(setting.ordinal());
      double[] scale = new double[tuned.repeatRateExponent() > 0 ? repeatRate.length : 0];
      for (int user = 0; user < scale.length; user++) {
        scale[user] = Math.pow(repeatRate[user], tuned.repeatRateExponent());
      }
      var blend = new Blend(models, weightArray(tuned, algorithms), scale);
      rows.add(
          new Row("blend", setting, measure("blend", blend, cases, history, setting, catalogue)));
    }
    try (var live = LiveReplay.of(test.training(), RecommenderSettings.defaults())) {
      for (Setting setting : Setting.values()) {
        live.use(live.settings()
            .with(new BlendSettings(
                setting == Setting.EXCLUDED,
                BlendSettings.DEFAULTS.brandCap(),
                BlendSettings.DEFAULTS.categoryCap())));
        rows.add(new Row(
            "live",
            setting,
            measure(
                "live",
                user -> live.rank(user, options.k()),
                cases(test.holdouts(), history, setting),
                history,
                setting,
                catalogue)));
      }
    }
    return new EvaluationReport(
        all.userCount(),
        catalogue,
        all.size(),
        test.holdouts().size(),
        validation.holdouts().size(),
        options.k(),
        options,
        halfLife,
        ease == null ? 0 : ease.items(),
        ease == null ? 0 : ease.inversionSeconds(),
        weights,
        rows,
        (System.nanoTime() - start) / 1e9);
  }

  /**
   * Chooses the live recommender's settings on the validation split only (the test baskets are not
   * read): the history before each user's last training basket replayed into a node's aggregates,
   * each setting tried scored by the mean NDCG of the live answers with bought items kept. What it
   * chooses is what the engine's defaults should be.
   */
  public List<LiveTuning.Result> tuneLive(Interactions all) {
    HoldoutSplit validation = HoldoutSplit.of(HoldoutSplit.of(all).training());
    UserItems history = validation.training().userItems();
    var results = new ArrayList<LiveTuning.Result>();
    try (var live = LiveReplay.of(validation.training(), RecommenderSettings.defaults())) {
      for (Setting setting : Setting.values()) {
        List<Case> cases = cases(validation.holdouts(), history, setting);
        boolean excluded = setting == Setting.EXCLUDED;
        RecommenderSettings start = RecommenderSettings.defaults()
            .with(new BlendSettings(
                excluded, BlendSettings.DEFAULTS.brandCap(), BlendSettings.DEFAULTS.categoryCap()));
        try (var step = progress.start(
            "tune live (validation, " + setting.label() + ")", -1, "settings tried")) {
          var tried = new AtomicLong();
          results.add(LiveTuning.tune(
              setting, excluded ? LiveTuning.NEW_ONLY : LiveTuning.KEPT, start, settings -> {
                live.use(settings);
                double ndcg = meanNdcg(cases, user -> live.rank(user, options.k()));
                step.stepTo(tried.incrementAndGet());
                return ndcg;
              }));
        }
      }
    }
    return results;
  }

  private double meanNdcg(List<Case> cases, Ranker ranker) {
    return IntStream.range(0, cases.size())
            .parallel()
            .mapToDouble(at -> RankingMetrics.of(
                    ranker.rank(cases.get(at).user()), cases.get(at).relevant(), options.k())
                .ndcg())
            .sum()
        / Math.max(1, cases.size());
  }

  private List<Algorithm> algorithms(double buyAgainHalfLife) {
    return List.of(
        new BuyAgain(buyAgainHalfLife),
        new Popularity(options.popularityHalfLifeDays()),
        new ItemKnn(options.neighbours()),
        new Ease(options.easeLambda(), options.easeMinUsers(), options.easeMaxItems()));
  }

  private List<Algorithm.Model> fitAll(
      List<Algorithm> algorithms, Interactions training, String task) {
    List<Algorithm.Model> models = new ArrayList<>();
    try (var step = progress.start(task, algorithms.size(), "algorithms")) {
      for (Algorithm algorithm : algorithms) {
        models.add(algorithm.fit(training));
        step.stepTo(models.size());
      }
    }
    return models;
  }

  private double tuneBuyAgainHalfLife(HoldoutSplit validation, UserItems history) {
    List<Case> cases = cases(validation.holdouts(), history, Setting.KEPT);
    double best = HALF_LIFE_GRID_DAYS[0];
    double bestNdcg = -1;
    for (double days : HALF_LIFE_GRID_DAYS) {
      Algorithm.Model model = new BuyAgain(days).fit(validation.training());
      double ndcg = measure(
              "buy-again half-life " + (int) days + "d", model, cases, history, Setting.KEPT, 1)
          .ndcg();
      if (ndcg > bestNdcg) {
        bestNdcg = ndcg;
        best = days;
      }
    }
    return best;
  }

  private static List<Case> cases(List<Holdout> holdouts, UserItems history, Setting setting) {
    List<Case> cases = new ArrayList<>();
    for (Holdout holdout : holdouts) {
      int[] relevant = setting == Setting.KEPT
          ? holdout.items()
          : Arrays.stream(holdout.items())
              .filter(item -> !history.bought(holdout.user(), item))
              .toArray();
      if (relevant.length > 0) cases.add(new Case(holdout.user(), relevant));
    }
    return cases;
  }

  private MetricsSummary measure(
      String task,
      Algorithm.Model model,
      List<Case> cases,
      UserItems history,
      Setting setting,
      int catalogue) {
    int items = history.itemCount();
    return measure(
        task,
        user -> {
          double[] scores = new double[items];
          Arrays.fill(scores, Double.NEGATIVE_INFINITY);
          model.score(user, scores);
          return TopN.of(scores, options.k(), excluded(history, user, setting));
        },
        cases,
        history,
        setting,
        catalogue);
  }

  /** A top k for a user, as item indexes, best first. */
  @FunctionalInterface
  interface Ranker {
    int[] rank(int user);
  }

  private MetricsSummary measure(
      String task,
      Ranker ranker,
      List<Case> cases,
      UserItems history,
      Setting setting,
      int catalogue) {
    int items = history.itemCount();
    int[][] lists = new int[cases.size()][];
    var done = new AtomicLong();
    try (var step = progress.start(task + " (" + setting.label() + ")", cases.size(), "users")) {
      IntStream.range(0, cases.size()).parallel().forEach(at -> {
        lists[at] = ranker.rank(cases.get(at).user());
        step.stepTo(done.incrementAndGet());
      });
    }
    List<RankingMetrics> perUser = new ArrayList<>(cases.size());
    boolean[] recommended = new boolean[items];
    int distinct = 0;
    for (int at = 0; at < cases.size(); at++) {
      perUser.add(RankingMetrics.of(lists[at], cases.get(at).relevant(), options.k()));
      for (int item : lists[at]) {
        if (!recommended[item]) {
          recommended[item] = true;
          distinct++;
        }
      }
    }
    return MetricsSummary.of(perUser, distinct, catalogue);
  }

  private static IntPredicate excluded(UserItems history, int user, Setting setting) {
    return setting == Setting.KEPT ? item -> false : item -> history.bought(user, item);
  }

  /** Grid search of the blend's weights by mean NDCG@k on the validation cases. */
  private BlendWeights tuneBlend(
      List<Algorithm> algorithms,
      List<Algorithm.Model> models,
      double[] repeatRate,
      List<Case> cases,
      UserItems history,
      Setting setting) {
    List<double[]> grid = grid(algorithms, setting);
    // with bought items kept, every combination is tried with buy-again's weight times the user's
    // repeat rate to the power 0, 1 and 2
    int modes = setting == Setting.KEPT ? 3 : 1;
    double[][] ndcgByCase = new double[cases.size()][];
    int items = history.itemCount();
    var done = new AtomicLong();
    try (var step = progress.start("tune blend (" + setting.label() + ")", cases.size(), "users")) {
      IntStream.range(0, cases.size()).parallel().forEach(at -> {
        Case c = cases.get(at);
        double[][] normalised = Blend.normalisedScores(models, c.user(), items);
        double[] blended = new double[items];
        double[] ndcg = new double[grid.size() * modes];
        var exclude = excluded(history, c.user(), setting);
        for (int mode = 0; mode < modes; mode++) {
          if (mode > 0) Blend.scale(normalised[0], repeatRate[c.user()]);
          for (int combo = 0; combo < grid.size(); combo++) {
            Blend.combine(normalised, grid.get(combo), blended);
            int[] top = TopN.of(blended, options.k(), exclude);
            ndcg[mode * grid.size() + combo] =
                RankingMetrics.of(top, c.relevant(), options.k()).ndcg();
          }
        }
        ndcgByCase[at] = ndcg;
        step.stepTo(done.incrementAndGet());
      });
    }
    int best = 0;
    double bestMean = -1;
    for (int combo = 0; combo < grid.size() * modes; combo++) {
      double sum = 0;
      for (double[] ndcg : ndcgByCase) sum += ndcg[combo];
      double mean = sum / Math.max(1, cases.size());
      if (mean > bestMean + 1e-12) {
        bestMean = mean;
        best = combo;
      }
    }
    Map<String, Double> named = new LinkedHashMap<>();
    for (int at = 0; at < algorithms.size(); at++)
      named.put(algorithms.get(at).name(), grid.get(best % grid.size())[at]);
    return new BlendWeights(setting, named, best / grid.size(), bestMean);
  }

  /**
   * Buy-again (first) is 1 with bought items kept and 0 without (it has nothing else to offer); the
   * others take every grid value, but not all zero.
   */
  private static List<double[]> grid(List<Algorithm> algorithms, Setting setting) {
    List<double[]> grid = new ArrayList<>();
    int others = algorithms.size() - 1;
    int combos = (int) Math.pow(WEIGHT_GRID.length, others);
    for (int code = 0; code < combos; code++) {
      double[] weights = new double[algorithms.size()];
      weights[0] = setting == Setting.KEPT ? 1 : 0;
      int rest = code;
      boolean any = weights[0] > 0;
      for (int at = 1; at <= others; at++) {
        weights[at] = WEIGHT_GRID[rest % WEIGHT_GRID.length];
        rest /= WEIGHT_GRID.length;
        any |= weights[at] > 0;
      }
      if (any) grid.add(weights);
    }
    return grid;
  }

  private static double[] weightArray(BlendWeights weights, List<Algorithm> algorithms) {
    double[] array = new double[algorithms.size()];
    for (int at = 0; at < algorithms.size(); at++) {
      array[at] = weights.weights().getOrDefault(algorithms.get(at).name(), 0.0);
    }
    return array;
  }
}
