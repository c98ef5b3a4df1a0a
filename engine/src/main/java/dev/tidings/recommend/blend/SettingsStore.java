package dev.tidings.recommend.blend;

/** Where the recommender's settings are kept: read by every node, changed through the API. */
public interface SettingsStore {
  RecommenderSettings load();

  void save(Algorithm algorithm, AlgorithmSettings settings);

  void save(BlendSettings settings);
}
