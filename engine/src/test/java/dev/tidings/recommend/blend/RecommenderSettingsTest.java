package dev.tidings.recommend.blend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RecommenderSettingsTest {
  private static final BlendSettings NEW_ONLY = new BlendSettings(true, 3, 4);

  @Test
  void weights_not_stored_follow_whether_the_shop_excludes_bought_products() {
    var kept = RecommenderSettings.defaults();
    var newOnly = kept.with(NEW_ONLY);
    for (Algorithm algorithm : Algorithm.values()) {
      assertThat(kept.of(algorithm).weight()).isEqualTo(algorithm.defaultWeight(false));
      assertThat(newOnly.of(algorithm).weight()).isEqualTo(algorithm.defaultWeight(true));
    }
  }

  @Test
  void a_stored_weight_stays_whatever_the_shop_chooses() {
    var stored = RecommenderSettings.defaults()
        .with(Algorithm.EASE, new AlgorithmSettings(true, 7, Map.of()))
        .with(NEW_ONLY);
    assertThat(stored.of(Algorithm.EASE).weight()).isEqualTo(7);
    assertThat(stored.algorithms()).containsOnlyKeys(Algorithm.EASE);
  }
}
