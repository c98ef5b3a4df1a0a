package dev.tidings.recommend.blend;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The algorithms the blender knows, each with its default weight and parameters. A closed set: an
 * algorithm is code, its settings are data ({@code recommender_settings}). The defaults of buy-again,
 * popularity, co-occurrence and EASE are what {@code tidings evaluate --tune-live} chose on the
 * validation split of real purchases (docs/recommendation-quality.md); affinity, recently viewed and
 * new items read views, brands and follows, which that history lacks, so theirs are judgement.
 */
public enum Algorithm {
  POPULARITY(
      0.5,
      0.0,
      List.of(
          new Param("halfLifeDays", 0.1, 365, 30, "age at which a day's events count half"),
          new Param("windowDays", 1, 90, 60, "days of events that count"),
          new Param(
              "purchaseWeight",
              0,
              100,
              2,
              "how much more a person buying counts than one only looking"))),
  CO_OCCURRENCE(
      0.05,
      0.1,
      List.of(
          new Param("seeds", 1, 50, 10, "the user's most recent items whose neighbours are taken"),
          new Param("coViewWeight", 0, 10, 1, "weight of sessions viewing both"),
          new Param("coPurchaseWeight", 0, 10, 3, "weight of orders holding both"))),
  AFFINITY(
      0.3,
      0.3,
      List.of(
          new Param(
              "halfLifeMonths", 0.1, 120, 3, "age in months at which a month's events count half"),
          new Param(
              "topTastes", 1, 20, 5, "brands and categories of the user's taste considered"))),
  RECENTLY_VIEWED(
      0.5,
      0.5,
      List.of(
          new Param("days", 1, 90, 14, "how far back views count"),
          new Param("halfLifeDays", 0.1, 90, 3, "age at which a day's views count half"))),
  BUY_AGAIN(
      1.0,
      1.0,
      List.of(
          new Param("halfLifeMonths", 0.1, 120, 6, "age in months at which a purchase counts half"),
          new Param(
              "repeatBonus", 0, 10, 0, "extra weight per further month the item was bought"))),
  NEW_ITEMS(
      0.3,
      0.3,
      List.of(new Param("days", 1, 365, 30, "products created this recently count as new"))),
  EASE(
      0.25,
      0.25,
      List.of(
          new Param("items", 10, 3000, 1000, "most popular items in the model (cubic cost)"),
          new Param("lambda", 0.1, 100000, 300, "L2 regularisation"),
          new Param("seeds", 1, 100, 20, "the user's most recent items the scores start from")));

  /**
   * Which bit of an experiment arm (carried in an email's token) stands for which algorithm. Tokens
   * in sent emails keep these positions: only ever append.
   */
  private static final List<Algorithm> ARM_BITS =
      List.of(POPULARITY, CO_OCCURRENCE, AFFINITY, RECENTLY_VIEWED, BUY_AGAIN, NEW_ITEMS, EASE);

  private final double defaultWeight;
  private final double newOnlyWeight;
  private final List<Param> params;

  /**
   * @param defaultWeight its weight when bought products may be recommended again (the default)
   * @param newOnlyWeight its weight in a shop that excludes what the customer bought, where the
   *     algorithms that find new products must carry the answer
   */
  Algorithm(double defaultWeight, double newOnlyWeight, List<Param> params) {
    this.defaultWeight = defaultWeight;
    this.newOnlyWeight = newOnlyWeight;
    this.params = params;
  }

  /** The name in the API, the settings table and the reasons: {@code co_occurrence}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Its weight unless set, in a shop that excludes bought products or one that does not. */
  public double defaultWeight(boolean excludeBought) {
    return excludeBought ? newOnlyWeight : defaultWeight;
  }

  public List<Param> params() {
    return params;
  }

  public Optional<Param> param(String name) {
    return params.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** An experiment arm's algorithms as the bits a token carries (0: none, the blend as configured). */
  public static int armOf(Set<Algorithm> algorithms) {
    int arm = 0;
    for (Algorithm algorithm : algorithms) arm |= 1 << ARM_BITS.indexOf(algorithm);
    return arm;
  }

  /** The algorithms of {@code arm}; bits no algorithm has (a later version's) are ignored. */
  public static Set<Algorithm> ofArm(int arm) {
    Set<Algorithm> algorithms = EnumSet.noneOf(Algorithm.class);
    for (int bit = 0; bit < ARM_BITS.size(); bit++)
      if ((arm & (1 << bit)) != 0) algorithms.add(ARM_BITS.get(bit));
    return algorithms;
  }

  public static Optional<Algorithm> byId(String id) {
    for (Algorithm algorithm : values())
      if (algorithm.id().equals(id)) return Optional.of(algorithm);
    return Optional.empty();
  }
}
