package dev.tidings.recommend.blend;

import java.util.EnumMap;
import java.util.Map;

/**
 * The algorithms' settings an operator stored ({@code algorithms}: only those) and the blender's. An
 * algorithm not stored takes its defaults, which follow whether the shop excludes bought products.
 */
public record RecommenderSettings(
    Map<Algorithm, AlgorithmSettings> algorithms, BlendSettings blend) {
  public RecommenderSettings {
    algorithms = Map.copyOf(algorithms);
  }

  public static RecommenderSettings defaults() {
    return new RecommenderSettings(Map.of(), BlendSettings.DEFAULTS);
  }

  public AlgorithmSettings of(Algorithm algorithm) {
    AlgorithmSettings stored = algorithms.get(algorithm);
    return stored != null ? stored : AlgorithmSettings.defaults(algorithm, blend.excludeBought());
  }

  public RecommenderSettings with(Algorithm algorithm, AlgorithmSettings settings) {
    var changed = new EnumMap<Algorithm, AlgorithmSettings>(Algorithm.class);
    changed.putAll(algorithms);
    changed.put(algorithm, settings);
    return new RecommenderSettings(changed, blend);
  }

  public RecommenderSettings with(BlendSettings changed) {
    return new RecommenderSettings(algorithms, changed);
  }
}
