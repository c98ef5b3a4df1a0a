package dev.tidings.recommend.blend;

import java.util.EnumMap;
import java.util.Map;

/** Every algorithm's settings (each algorithm present) and the blender's. */
public record RecommenderSettings(
    Map<Algorithm, AlgorithmSettings> algorithms, BlendSettings blend) {
  public RecommenderSettings {
    var all = new EnumMap<Algorithm, AlgorithmSettings>(Algorithm.class);
    for (Algorithm algorithm : Algorithm.values())
      all.put(algorithm, algorithms.getOrDefault(algorithm, AlgorithmSettings.defaults(algorithm)));
    algorithms = Map.copyOf(all);
  }

  public static RecommenderSettings defaults() {
    return new RecommenderSettings(Map.of(), BlendSettings.DEFAULTS);
  }

  public AlgorithmSettings of(Algorithm algorithm) {
    return algorithms.getOrDefault(algorithm, AlgorithmSettings.defaults(algorithm));
  }

  public RecommenderSettings with(Algorithm algorithm, AlgorithmSettings settings) {
    var changed = new EnumMap<Algorithm, AlgorithmSettings>(algorithms);
    changed.put(algorithm, settings);
    return new RecommenderSettings(changed, blend);
  }

  public RecommenderSettings with(BlendSettings changed) {
    return new RecommenderSettings(algorithms, changed);
  }
}
