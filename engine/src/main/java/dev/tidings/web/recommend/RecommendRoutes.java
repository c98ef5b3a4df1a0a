package dev.tidings.web.recommend;

import dev.tidings.JsonFields;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.recommend.blend.AlgorithmSettings;
import dev.tidings.recommend.blend.BlendSettings;
import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.recommend.blend.Param;
import dev.tidings.recommend.blend.RecommenderSettings;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/v1/users/{id}/recommendations?n=} (the default blend for any user id, known or
 * not), {@code GET /api/v1/recommenders} (every algorithm with its settings, and the blender's) and
 * {@code PUT /api/v1/recommenders/{name}} (change one; {@code blend} names the blender), which this
 * node applies at once and every other node within seconds.
 */
public final class RecommendRoutes implements RouteGroup {
  public static final int DEFAULT_N = 10;
  /** The blend's name in the settings routes; no algorithm is called so. */
  public static final String BLEND = "blend";

  private final LiveRecommender recommender;
  private final InstantSource clock;
  private final Duration deadline;
  private final long maxBodyBytes;

  /** {@code deadline}: how long one API answer may take to compute before it is cut short. */
  public RecommendRoutes(
      LiveRecommender recommender, InstantSource clock, Duration deadline, long maxBodyBytes) {
    this.recommender = recommender;
    this.clock = clock;
    this.deadline = deadline;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/api/v1/users/{id}/recommendations", (request, response) -> {
      int n = n(request);
      Recommendations answer = recommender.recommend(new RecommendationRequest(
          Requests.path(request, "id"),
          n,
          Set.of(),
          Optional.empty(),
          Locale.ROOT,
          clock.instant().plus(deadline)));
      JsonBodies.ok(
          response,
          new Items(answer.items().stream()
              .map(item -> new Item(item.productId(), item.score(), item.reasons(), shares(item)))
              .toList()));
    });
    routing.get(
        "/api/v1/recommenders",
        (request, response) -> JsonBodies.ok(response, view(recommender.settings())));
    routing.put("/api/v1/recommenders/{name}", (request, response) -> {
      String name = Requests.path(request, "name");
      RecommenderSettings changed;
      if (name.equals(BLEND)) {
        JsonNode body = object(request);
        changed = recommender.change(blend(body, recommender.settings().blend()));
      } else {
        Algorithm algorithm = Algorithm.byId(name)
            .orElseThrow(() -> ApiProblem.notFound("no recommender is called '" + name
                + "'; there are " + String.join(", ", names()) + " and " + BLEND));
        JsonNode body = object(request);
        changed = recommender.change(
            algorithm, algorithm(algorithm, body, recommender.settings().of(algorithm)));
      }
      JsonBodies.ok(response, view(changed));
    });
  }

  private static List<String> names() {
    return Arrays.stream(Algorithm.values()).map(Algorithm::id).toList();
  }

  /** {@code ?n=} within 1..50, 10 when absent. */
  private static int n(ServerRequest request) {
    var raw = Requests.query(request, "n");
    if (raw.isEmpty()) return DEFAULT_N;
    try {
      int n = Integer.parseInt(raw.get());
      if (n < 1 || n > RecommendationRequest.MAX_K)
        throw ApiProblem.badRequest(
            "n must be between 1 and " + RecommendationRequest.MAX_K + " but was " + n);
      return n;
    } catch (NumberFormatException e) {
      throw ApiProblem.badRequest("n must be a whole number but was '" + raw.get() + "'");
    }
  }

  private JsonNode object(ServerRequest request) {
    JsonNode body = JsonBodies.read(request, maxBodyBytes);
    if (!body.isObject())
      throw ApiProblem.unprocessable("the body must be a JSON object such as"
          + " {\"enabled\": true, \"weight\": 0.5, \"params\": {...}}");
    return body;
  }

  /** The current settings with the body's fields changed; every problem listed in one 422. */
  private static AlgorithmSettings algorithm(
      Algorithm algorithm, JsonNode body, AlgorithmSettings current) {
    var problems = new ArrayList<String>();
    boolean enabled = current.enabled();
    double weight = current.weight();
    var params = new LinkedHashMap<>(current.params());
    for (var field : body.properties()) {
      JsonNode value = field.getValue();
      switch (field.getKey()) {
        case "enabled" -> {
          if (value.isBoolean()) enabled = value.asBoolean();
          else problems.add("enabled must be true or false, got " + JsonFields.kind(value));
        }
        case "weight" -> {
          Double given = number(problems, value, "weight");
          if (given != null) weight = given;
        }
        case "params" -> {
          if (!value.isObject()) {
            problems.add("params must be an object of numbers");
            continue;
          }
          for (var param : value.properties()) {
            Double given = number(problems, param.getValue(), "params." + param.getKey());
            if (given != null) params.put(param.getKey(), given);
          }
        }
        default ->
          problems.add("'" + field.getKey() + "' is not a setting (enabled, weight, params)");
      }
    }
    var changed = new AlgorithmSettings(enabled, weight, params);
    problems.addAll(changed.problems(algorithm));
    if (!problems.isEmpty()) throw ApiProblem.unprocessable(String.join("; ", problems));
    return changed;
  }

  /**
   * A finite number (the settings check their own ranges after), or null with a problem: 1e400 would be
   * Infinity as a double.
   */
  private static @Nullable Double number(List<String> problems, JsonNode value, String field) {
    var found = new Problems();
    Double given = JsonFields.given(value)
        ? JsonFields.number(found, value, field, -Double.MAX_VALUE, Double.MAX_VALUE)
        : null;
    if (given == null)
      problems.add(Problem.notANumber(
              field, value.isNumber() ? JsonFields.shown(value) : JsonFields.kind(value))
          .message());
    return given;
  }

  private static BlendSettings blend(JsonNode body, BlendSettings current) {
    var problems = new ArrayList<String>();
    boolean excludeBought = current.excludeBought();
    int brandCap = current.brandCap();
    int categoryCap = current.categoryCap();
    for (var field : body.properties()) {
      JsonNode value = field.getValue();
      switch (field.getKey()) {
        case "excludeBought" -> {
          if (value.isBoolean()) excludeBought = value.asBoolean();
          else problems.add("excludeBought must be true or false, got " + JsonFields.kind(value));
        }
        case "brandCap" -> {
          if (value.isIntegralNumber() && value.canConvertToInt()) brandCap = value.intValue();
          else problems.add("brandCap must be a whole number, got " + JsonFields.shown(value));
        }
        case "categoryCap" -> {
          if (value.isIntegralNumber() && value.canConvertToInt()) categoryCap = value.intValue();
          else problems.add("categoryCap must be a whole number, got " + JsonFields.shown(value));
        }
        default ->
          problems.add("'" + field.getKey()
              + "' is not a blend setting (excludeBought, brandCap, categoryCap)");
      }
    }
    var changed = new BlendSettings(excludeBought, brandCap, categoryCap);
    problems.addAll(changed.problems());
    if (!problems.isEmpty()) throw ApiProblem.unprocessable(String.join("; ", problems));
    return changed;
  }

  private static Settings view(RecommenderSettings settings) {
    var algorithms = new ArrayList<AlgorithmView>();
    for (Algorithm algorithm : Algorithm.values()) {
      AlgorithmSettings of = settings.of(algorithm);
      var params = new LinkedHashMap<String, Double>();
      for (Param param : algorithm.params())
        params.put(param.name(), of.param(algorithm, param.name()));
      algorithms.add(new AlgorithmView(
          algorithm.id(),
          of.enabled(),
          of.weight(),
          params,
          algorithm.params().stream()
              .map(p -> new ParamView(p.name(), p.min(), p.max(), p.defaultValue(), p.meaning()))
              .toList()));
    }
    return new Settings(algorithms, settings.blend());
  }

  /**
   * {@code shares}: each reason's part of the score, in the order of {@code reasons} (empty where the
   * recommender does not say).
   */
  record Item(String id, double score, List<String> reasons, Map<String, Double> shares) {}

  private static Map<String, Double> shares(Recommendations.Recommended item) {
    var shares = new LinkedHashMap<String, Double>();
    for (int at = 0; at < item.shares().size(); at++)
      shares.put(item.reasons().get(at), item.shares().get(at));
    return shares;
  }

  record Items(List<Item> items) {}

  record ParamView(String name, double min, double max, double defaultValue, String meaning) {}

  record AlgorithmView(
      String name,
      boolean enabled,
      double weight,
      Map<String, Double> params,
      List<ParamView> parameters) {}

  record Settings(List<AlgorithmView> algorithms, BlendSettings blend) {}
}
