package dev.tidings.optimize.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LiftPriorTest {
  @Test
  void the_fit_recovers_the_share_and_size_of_a_known_lift() {
    // 40,000 challengers, a tenth converting 1.5x their current configuration, at 4%
    // with 20,000 and 10,000 impressions: each comparison alone is a coin toss at best,
    // all together show the mixture.
    var random = new SplittableRandom(11);
    var evidence = new LiftEvidence();
    for (int i = 0; i < 40_000; i++) {
      double lift = i % 10 == 0 ? 1.5 : 1.0;
      evidence.add(
          BinomialDraws.exact(20_000, 0.04, random),
          BinomialDraws.exact(10_000, 0.04 * lift, random));
    }
    var prior = LiftPrior.fit(evidence);
    assertThat(prior.better()).isCloseTo(0.10, within(0.02));
    assertThat(prior.noDifference()).isCloseTo(0.90, within(0.02));
    assertThat(Math.exp(prior.meanBetterLogLift())).isCloseTo(1.5, within(0.05));
    assertThat(prior.worse()).isLessThan(0.01);
  }

  @Test
  void a_catalogue_without_differences_puts_almost_no_weight_on_a_better_challenger() {
    var random = new SplittableRandom(12);
    var evidence = new LiftEvidence();
    for (int i = 0; i < 40_000; i++) {
      // Rates and traffic vary by item, as in a shop,
      // but no challenger differs from its current one.
      double rate = 0.02 + 0.08 * random.nextDouble();
      long impressions = 200 + random.nextInt(20_000);
      evidence.add(
          BinomialDraws.exact(impressions, rate, random),
          BinomialDraws.exact(impressions / 2, rate, random));
    }
    var prior = LiftPrior.fit(evidence);
    assertThat(prior.noDifference()).isGreaterThan(0.97);
    assertThat(prior.better()).isLessThan(0.01);
  }

  @Test
  void a_group_of_like_comparisons_stands_for_each_of_them() {
    // Two challengers with the same counts fall in one cell whose counts are theirs.
    var evidence = new LiftEvidence();
    evidence.add(Proportion.of(40, 1_000), Proportion.of(30, 500));
    evidence.add(Proportion.of(40, 1_000), Proportion.of(30, 500));
    assertThat(evidence.comparisons()).isEqualTo(2);
    assertThat(evidence.groups()).singleElement().satisfies(group -> {
      assertThat(group.comparisons()).isEqualTo(2);
      assertThat(group.challengerConversions()).isEqualTo(30);
      assertThat(group.allConversions()).isEqualTo(70);
      assertThat(group.share()).isCloseTo(1.0 / 3, within(1e-12));
    });
    // Nothing converted: no evidence either way, not counted.
    evidence.add(Proportion.of(0, 1_000), Proportion.of(0, 500));
    assertThat(evidence.comparisons()).isEqualTo(2);
  }

  @Test
  void the_posterior_separates_a_clear_winner_from_an_item_without_differences() {
    double[] weights = new double[LiftPrior.grid().length];
    weights[LiftPrior.GRID_HALF] = 0.95;
    weights[LiftPrior.GRID_HALF + 8] = 0.05; // a lift of e^0.4 = 1.49
    var prior = LiftPrior.of(weights);

    var winner = LiftPosterior.of(
        prior,
        Proportion.of(400, 10_000),
        List.of(Proportion.of(100, 2_500), Proportion.of(150, 2_500)));
    assertThat(winner.challenger()).isEqualTo(1);
    assertThat(winner.notBetter()).isLessThan(0.01);

    var alike = LiftPosterior.of(
        prior,
        Proportion.of(400, 10_000),
        List.of(Proportion.of(100, 2_500), Proportion.of(101, 2_500)));
    assertThat(alike.notBetter()).isGreaterThan(0.95);
  }

  @Test
  void the_quick_bound_never_drops_an_item_the_full_posterior_would_keep() {
    double[] weights = new double[LiftPrior.grid().length];
    weights[LiftPrior.GRID_HALF] = 0.93;
    weights[LiftPrior.GRID_HALF + 8] = 0.05;
    weights[LiftPrior.GRID_HALF - 10] = 0.02;
    var prior = LiftPrior.of(weights);
    var random = new SplittableRandom(13);
    int dropped = 0;
    for (int i = 0; i < 20_000; i++) {
      long impressions = 100 + random.nextInt(5_000);
      double rate = 0.02 + 0.08 * random.nextDouble();
      var current = BinomialDraws.exact(impressions, rate, random);
      var challengers = List.of(
          BinomialDraws.exact(impressions / 2, rate * (random.nextBoolean() ? 1.5 : 1), random),
          BinomialDraws.exact(impressions / 2, rate, random));
      double better = LiftPosterior.of(prior, current, challengers).better();
      if (LiftPosterior.ifPossiblyBetter(prior, current, challengers, 0.5).isEmpty()) {
        dropped++;
        assertThat(better).isLessThan(0.5);
      }
    }
    // And it does drop most: that is what it is for.
    assertThat(dropped).isGreaterThan(10_000);
  }

  @Test
  void the_bayesian_false_discovery_count_stops_when_the_mean_passes_alpha() {
    // Running means: 0.001, 0.0055, 0.0207, 0.0405, 0.0604 > 0.05.
    double[] ascending = {0.001, 0.01, 0.051, 0.1, 0.14};
    assertThat(MultipleComparisons.bayesianFalseDiscoveryCount(ascending, 0.05)).isEqualTo(4);
    assertThat(MultipleComparisons.bayesianFalseDiscoveryCount(ascending, 0.001))
        .isEqualTo(1);
    assertThat(MultipleComparisons.bayesianFalseDiscoveryCount(new double[] {0.2}, 0.05))
        .isZero();
  }
}
