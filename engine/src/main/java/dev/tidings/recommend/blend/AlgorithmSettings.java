package dev.tidings.recommend.blend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How one algorithm takes part: whether it runs, its weight in the blend (its scores are first scaled
 * so that its best candidate scores 1) and its parameters (those not given take their defaults).
 */
public record AlgorithmSettings(boolean enabled, double weight, Map<String, Double> params) {
  public static final double MAX_WEIGHT = 100;

  public AlgorithmSettings {
    params = Map.copyOf(Objects.requireNonNull(params, "params"));
  }

  /** Its defaults in a shop that excludes bought products, or one that does not. */
  public static AlgorithmSettings defaults(Algorithm algorithm, boolean excludeBought) {
    return new AlgorithmSettings(true, algorithm.defaultWeight(excludeBought), Map.of());
  }

  /** The parameter's value, its default when not set. */
  public double param(Algorithm algorithm, String name) {
    Param param = algorithm
        .param(name)
        .orElseThrow(
            () -> new IllegalArgumentException(algorithm.id() + " has no parameter " + name));
    return params.getOrDefault(name, param.defaultValue());
  }

  /** Everything wrong with these settings for {@code algorithm}; empty when they are valid. */
  public List<String> problems(Algorithm algorithm) {
    var problems = new ArrayList<String>();
    if (Double.isNaN(weight) || weight < 0 || weight > MAX_WEIGHT)
      problems.add("weight must be within 0.." + (int) MAX_WEIGHT + " but was " + weight);
    params.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
      var param = algorithm.param(entry.getKey());
      if (param.isEmpty()) {
        problems.add("params." + entry.getKey() + " is not a parameter of " + algorithm.id()
            + " (it has "
            + String.join(", ", algorithm.params().stream().map(Param::name).toList())
            + ")");
      } else {
        String problem = param.get().problem(entry.getValue());
        if (problem != null) problems.add(problem);
      }
    });
    return problems;
  }
}
