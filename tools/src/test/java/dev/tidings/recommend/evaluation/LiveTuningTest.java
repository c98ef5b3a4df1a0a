package dev.tidings.recommend.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.recommend.blend.RecommenderSettings;
import org.junit.jupiter.api.Test;

class LiveTuningTest {
  @Test
  void coordinate_ascent_finds_the_best_values_on_the_grids_and_records_every_trial() {
    // a score peaked at popularity 0.1, co-occurrence 0.25, EASE 0.5: separable, so one round finds
    // it
    var result = LiveTuning.tune(
        Setting.EXCLUDED, LiveTuning.NEW_ONLY, RecommenderSettings.defaults(), settings -> {
          double p = settings.of(Algorithm.POPULARITY).weight() - 0.1;
          double c = settings.of(Algorithm.CO_OCCURRENCE).weight() - 0.25;
          double e = settings.of(Algorithm.EASE).weight() - 0.5;
          return 1 - p * p - c * c - e * e;
        });
    assertThat(result.settings().of(Algorithm.POPULARITY).weight()).isEqualTo(0.1);
    assertThat(result.settings().of(Algorithm.CO_OCCURRENCE).weight()).isEqualTo(0.25);
    assertThat(result.settings().of(Algorithm.EASE).weight()).isEqualTo(0.5);
    assertThat(result.ndcg()).isEqualTo(1.0);
    assertThat(result.trials()).first().extracting(LiveTuning.Trial::knob).isEqualTo("start");
    assertThat(result.trials().size()).isGreaterThan(LiveTuning.NEW_ONLY.size());
  }

  @Test
  void a_gain_within_noise_keeps_the_earlier_value() {
    double start = RecommenderSettings.defaults().of(Algorithm.EASE).weight();
    var result = LiveTuning.tune(
        Setting.KEPT,
        LiveTuning.KEPT,
        RecommenderSettings.defaults(),
        settings -> settings.of(Algorithm.EASE).weight() == start ? 0.3 : 0.30005);
    assertThat(result.settings().of(Algorithm.EASE).weight()).isEqualTo(start);
  }
}
