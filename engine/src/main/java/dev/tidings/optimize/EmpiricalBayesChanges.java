package dev.tidings.optimize;

import dev.tidings.optimize.stats.LiftEvidence;
import dev.tidings.optimize.stats.LiftPosterior;
import dev.tidings.optimize.stats.LiftPrior;
import dev.tidings.optimize.stats.MultipleComparisons;
import dev.tidings.optimize.stats.Proportion;
import dev.tidings.optimize.stats.RatePrior;
import dev.tidings.optimize.stats.TwoProportionTest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The day's changes by {@link OptimizationCriteria.Correction#BAYES}, fed the catalogue twice: first
 * {@link #learn} every item (the lift prior and the spread of rates are fitted on all of them), then
 * {@link #consider} every item again (each gets its posterior), then {@link #changes}. Memory stays bounded as in the Benjamini–Hochberg
 * pass: the first read keeps cells of like counts, the second only the items that could be named.
 */
final class EmpiricalBayesChanges {
  /**
   * An item more likely than not to be no better is never named, however sure the others are: the mean
   * could carry it within alpha only behind many near-certain ones, and a change that is probably false is
   * not worth making. It also bounds what the second read keeps: each item kept is at least half a better
   * one in expectation, so they number at most twice the better items the catalogue holds.
   */
  static final double MOST_NOT_BETTER = 0.5;

  private final ItemOptimizer optimizer;
  private final double alpha;
  private final LiftEvidence evidence = new LiftEvidence();
  private final RatePrior.Moments rateMoments = new RatePrior.Moments();
  private @Nullable LiftPrior prior;
  private @Nullable RatePrior rates;
  private final List<Candidate> candidates = new ArrayList<>();

  private record Candidate(
      ItemOptimizer.Eligible item, String itemId, Arm best, double notBetter) {}

  EmpiricalBayesChanges(OptimizationCriteria criteria) {
    this.optimizer = new ItemOptimizer(criteria);
    this.alpha = criteria.alpha();
  }

  /** The first read: adds the item's comparisons to the evidence the prior is fitted on. */
  void learn(List<Arm> arms) {
    if (prior != null) throw new IllegalStateException("the prior is already fitted");
    optimizer.eligible(arms).ifPresent(item -> {
      rateMoments.add(item.current().counts());
      for (Arm challenger : item.challengers())
        evidence.add(item.current().counts(), challenger.counts());
    });
  }

  /** The second read: keeps the item if it could be named. Fits the prior on the first call. */
  void consider(String itemId, List<Arm> arms) {
    var prior = prior();
    var rates = rates();
    var found = optimizer.eligible(arms);
    if (found.isEmpty()) return;
    var item = found.get();
    var counts = item.challengers().stream().map(Arm::counts).toList();
    var posterior = LiftPosterior.ifPossiblyBetter(
        prior, rates, item.current().counts(), counts, 1 - MOST_NOT_BETTER);
    if (posterior.isEmpty() || posterior.get().notBetter() > MOST_NOT_BETTER) return;
    Arm best = item.challengers().get(posterior.get().challenger());
    // As for the other ways, a challenger that converted less than the current one is not named,
    // however the catalogue reads it.
    if (best.counts().rate() <= item.current().counts().rate()) return;
    candidates.add(new Candidate(item, itemId, best, posterior.get().notBetter()));
  }

  /** The fitted prior; the first call to {@link #consider} fits it. */
  LiftPrior prior() {
    var fitted = prior;
    if (fitted == null) {
      fitted = LiftPrior.fit(evidence);
      prior = fitted;
    }
    return fitted;
  }

  /** The fitted spread of the current configurations' rates; the first call to {@link #consider} fits it. */
  RatePrior rates() {
    var fitted = rates;
    if (fitted == null) {
      fitted = rateMoments.fit();
      rates = fitted;
    }
    return fitted;
  }

  /**
   * The named items after {@code after} in item order, at most {@code limit}, only those in {@code only}
   * when given: from the surest on, as many as keep the mean chance of a false change within alpha.
   */
  List<ItemChange> changes(String after, Optional<Collection<String>> only, int limit) {
    var surest = new ArrayList<>(candidates);
    surest.sort(Comparator.comparingDouble(Candidate::notBetter));
    int named = MultipleComparisons.bayesianFalseDiscoveryCount(
        surest.stream().mapToDouble(Candidate::notBetter).toArray(), alpha);
    var chosen = new ArrayList<>(surest.subList(0, named));
    chosen.sort(Comparator.comparing(Candidate::itemId));
    var wanted = only.map(HashSet::new);
    var changes = new ArrayList<ItemChange>();
    for (var candidate : chosen) {
      if (candidate.itemId().compareTo(after) <= 0) continue;
      if (wanted.isPresent() && !wanted.get().contains(candidate.itemId())) continue;
      changes.add(change(candidate));
      if (changes.size() >= limit) break;
    }
    return changes;
  }

  private ItemChange change(Candidate candidate) {
    Proportion current = candidate.item().current().counts();
    var assessment = optimizer
        .assess(
            candidate.itemId(),
            concat(candidate.item().current(), candidate.item().challengers()))
        .orElseThrow();
    double adjusted = assessment.challengers().stream()
        .filter(c -> c.arm().equals(candidate.best()))
        .findFirst()
        .orElseThrow()
        .adjustedPValue();
    return new ItemChange(
        candidate.itemId(),
        candidate.item().current().configurationId(),
        candidate.best().configurationId(),
        current,
        candidate.best().counts(),
        TwoProportionTest.compare(current, candidate.best().counts()),
        candidate.item().challengers().size(),
        adjusted,
        1,
        candidate.notBetter());
  }

  private static List<Arm> concat(Arm current, List<Arm> challengers) {
    var arms = new ArrayList<Arm>(challengers.size() + 1);
    arms.add(current);
    arms.addAll(challengers);
    return arms;
  }
}
