package dev.tidings.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.optimize.stats.BinomialDraws;
import dev.tidings.optimize.stats.MultipleComparisons;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EmpiricalBayesChangesTest {
  private static final OptimizationCriteria BAYES =
      OptimizationCriteria.defaults().withCorrection(OptimizationCriteria.Correction.BAYES);

  /** A catalogue as the benchmark draws it, smaller and busier; {@code better} marks the planted items. */
  private record Catalogue(List<List<Arm>> items, BitSet better) {
    String id(int item) {
      return "item-%06d".formatted(item);
    }

    int number(String id) {
      return Integer.parseInt(id.substring("item-".length()));
    }
  }

  @Test
  void names_more_than_benjamini_hochberg_with_at_most_about_alpha_false() {
    int bayesFound = 0;
    int bhFound = 0;
    for (long seed = 1; seed <= 3; seed++) {
      var catalogue = catalogue(25_000, 4_000, 0.05, 0.02, seed);
      var bayes = bayes(catalogue);
      var bh = benjaminiHochberg(catalogue);
      int found = planted(catalogue, bayes);
      int falseOnes = bayes.size() - found;
      // At alpha 0.05 the expected false share is 5%; with a few hundred named a draw can reach 8%.
      assertThat(bayes).hasSizeGreaterThan(100);
      assertThat((double) falseOnes / bayes.size()).isLessThanOrEqualTo(0.08);
      assertThat(found).isGreaterThan(planted(catalogue, bh));
      bayesFound += found;
      bhFound += planted(catalogue, bh);
    }
    // Borrowing strength across the catalogue is worth far more than luck:
    // a fifth more at the least.
    assertThat(bayesFound).isGreaterThan(bhFound * 6 / 5);
  }

  @Test
  void a_catalogue_without_differences_names_almost_nothing() {
    var catalogue = catalogue(40_000, 4_000, 0, 0, 7);
    assertThat(bayes(catalogue)).hasSizeLessThanOrEqualTo(2);
  }

  @Test
  void pages_and_the_items_asked_for_walk_the_same_decision() {
    var catalogue = catalogue(20_000, 4_000, 0.05, 0.02, 9);
    var decider = decider(catalogue);
    var all = decider.changes("", Optional.empty(), Integer.MAX_VALUE);
    assertThat(all).isNotEmpty();
    assertThat(all).allSatisfy(change -> {
      assertThat(change.notBetter()).isBetween(0.0, EmpiricalBayesChanges.MOST_NOT_BETTER);
      assertThat(change.best().rate()).isGreaterThan(change.current().rate());
      assertThat(change.threshold()).isEqualTo(1);
    });
    assertThat(all.stream().mapToDouble(ItemChange::notBetter).average().orElseThrow())
        .isLessThanOrEqualTo(0.05);
    var afterFirst = decider.changes(all.getFirst().itemId(), Optional.empty(), 3);
    assertThat(afterFirst).isEqualTo(all.subList(1, 4));
    var second = all.get(1).itemId();
    assertThat(decider.changes("", Optional.of(List.of(second, "item-none")), 10))
        .containsExactly(all.get(1));
  }

  private static List<ItemChange> bayes(Catalogue catalogue) {
    return decider(catalogue).changes("", Optional.empty(), Integer.MAX_VALUE);
  }

  private static EmpiricalBayesChanges decider(Catalogue catalogue) {
    var decider = new EmpiricalBayesChanges(BAYES);
    for (var arms : catalogue.items()) decider.learn(arms);
    for (int i = 0; i < catalogue.items().size(); i++)
      decider.consider(catalogue.id(i), catalogue.items().get(i));
    return decider;
  }

  /** The catalogue-wide way by p-values, as ItemConfigurations runs it. */
  private static List<ItemChange> benjaminiHochberg(Catalogue catalogue) {
    var criteria =
        OptimizationCriteria.defaults().withCorrection(OptimizationCriteria.Correction.CATALOGUE);
    var optimizer = new ItemOptimizer(criteria);
    var assessments = new ArrayList<ItemOptimizer.Assessment>();
    for (int i = 0; i < catalogue.items().size(); i++)
      optimizer.assess(catalogue.id(i), catalogue.items().get(i)).ifPresent(assessments::add);
    double cutoff = MultipleComparisons.benjaminiHochbergCutoff(
        assessments.stream().mapToDouble(ItemOptimizer.Assessment::pValue).toArray(),
        assessments.size(),
        criteria.alpha());
    var changes = new ArrayList<ItemChange>();
    for (var assessment : assessments) optimizer.winner(assessment, cutoff).ifPresent(changes::add);
    return changes;
  }

  private static int planted(Catalogue catalogue, List<ItemChange> changes) {
    return (int) changes.stream()
        .filter(c -> catalogue.better().get(catalogue.number(c.itemId())))
        .count();
  }

  /**
   * Log-normal traffic around {@code meanImpressions}, half to the current configuration; base rates of
   * 2-10%; a {@code betterShare} of items with one challenger converting 1.5x, a {@code worseShare} with
   * one converting 0.6x.
   */
  private static Catalogue catalogue(
      int items, double meanImpressions, double betterShare, double worseShare, long seed) {
    var random = new SplittableRandom(seed);
    var better = new BitSet(items);
    var catalogue = new ArrayList<List<Arm>>(items);
    for (int i = 0; i < items; i++) {
      long impressions =
          Math.max(1, Math.round(meanImpressions * Math.exp(1.2 * random.nextGaussian() - 0.72)));
      double rate = 0.02 + 0.08 * random.nextDouble();
      double draw = random.nextDouble();
      int changed = 1 + random.nextInt(2);
      double factor = 1;
      if (draw < betterShare) {
        factor = 1.5;
        better.set(i);
      } else if (draw < betterShare + worseShare) factor = 0.6;
      long current = (impressions + 1) / 2;
      long challenger = (impressions - current) / 2;
      var arms = new ArrayList<Arm>(3);
      arms.add(new Arm("a", true, BinomialDraws.draw(current, rate, random)));
      for (int c = 1; c <= 2; c++)
        arms.add(new Arm(
            String.valueOf((char) ('a' + c)),
            false,
            BinomialDraws.draw(challenger, c == changed ? rate * factor : rate, random)));
      catalogue.add(List.copyOf(arms));
    }
    return new Catalogue(catalogue, better);
  }
}
