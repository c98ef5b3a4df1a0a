package dev.tidings.recommend.blend;

import dev.tidings.Json;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import tools.jackson.databind.JsonNode;

/** The settings in {@code recommender_settings} and {@code recommender_blend} (V15). */
public final class JdbiSettingsStore implements SettingsStore {
  private final Jdbi jdbi;

  public JdbiSettingsStore(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public RecommenderSettings load() {
    return jdbi.withHandle(handle -> {
      var algorithms = new EnumMap<Algorithm, AlgorithmSettings>(Algorithm.class);
      handle
          .createQuery("SELECT name, enabled, weight, params::text FROM recommender_settings")
          .map((rows, context) -> {
            var settings = new AlgorithmSettings(
                rows.getBoolean(2), rows.getDouble(3), params(rows.getString(4)));
            // a row of an algorithm this version does not know (written by a newer node) is skipped
            Algorithm.byId(rows.getString(1))
                .ifPresent(algorithm -> algorithms.put(algorithm, settings));
            return 0;
          })
          .list();
      BlendSettings blend = handle
          .createQuery(
              "SELECT exclude_bought, brand_cap, category_cap FROM recommender_blend WHERE id = 1")
          .map((rows, context) ->
              new BlendSettings(rows.getBoolean(1), rows.getInt(2), rows.getInt(3)))
          .findOne()
          .orElse(BlendSettings.DEFAULTS);
      return new RecommenderSettings(algorithms, blend);
    });
  }

  @Override
  public void save(Algorithm algorithm, AlgorithmSettings settings) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO recommender_settings (name, enabled, weight, params, updated_at)
            VALUES (:name, :enabled, :weight, :params::jsonb, now())
            ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled, weight = excluded.weight,
              params = excluded.params, updated_at = now()""")
        .bind("name", algorithm.id())
        .bind("enabled", settings.enabled())
        .bind("weight", settings.weight())
        .bind("params", Json.MAPPER.writeValueAsString(settings.params()))
        .execute());
  }

  @Override
  public void save(BlendSettings settings) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO recommender_blend (id, exclude_bought, brand_cap, category_cap, updated_at)
            VALUES (1, :exclude, :brandCap, :categoryCap, now())
            ON CONFLICT (id) DO UPDATE SET exclude_bought = excluded.exclude_bought,
              brand_cap = excluded.brand_cap, category_cap = excluded.category_cap,
              updated_at = now()""")
        .bind("exclude", settings.excludeBought())
        .bind("brandCap", settings.brandCap())
        .bind("categoryCap", settings.categoryCap())
        .execute());
  }

  private static Map<String, Double> params(String json) {
    var params = new HashMap<String, Double>();
    JsonNode node = Json.MAPPER.readTree(json);
    for (var entry : node.properties())
      if (entry.getValue().isNumber())
        params.put(entry.getKey(), entry.getValue().asDouble());
    return params;
  }
}
