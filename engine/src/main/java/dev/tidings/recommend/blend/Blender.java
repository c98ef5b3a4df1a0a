package dev.tidings.recommend.blend;

import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommender;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The live recommender: every enabled algorithm's candidates for the user, each algorithm's scores
 * divided by its best (so weights compare algorithms, not their scales), times its weight, summed per
 * product. Then the filters (available products only, none of the request's exclusions, bought
 * products out when the settings say so), the brand and category caps, and trending products to fill
 * what is still free. Each product says which algorithms put it there, the heaviest first.
 *
 * <p>A call reads the user's aggregates and follows once (bounded by the request's deadline, see
 * {@link SignalReader}); everything else is in memory, rebuilt in the background. Past the deadline the
 * remaining algorithms are skipped and the answer is what the others found, filled by popularity.
 */
public final class Blender implements Recommender {
  /** The reason given to products that fill places the algorithms left free. */
  public static final String FILL = "popularity";

  /** Candidates asked of each algorithm per place: room for the filters and caps to skip some. */
  private static final int CANDIDATES_PER_PLACE = 3;

  private static final int MIN_CANDIDATES = 30;

  private final List<CandidateSource> sources;
  private final Supplier<RecommenderSettings> settings;
  private final Supplier<ItemModel> items;
  private final Supplier<@Nullable EaseModel> ease;
  private final SignalReader signals;
  private final InstantSource clock;

  Blender(
      List<CandidateSource> sources,
      Supplier<RecommenderSettings> settings,
      Supplier<ItemModel> items,
      Supplier<@Nullable EaseModel> ease,
      SignalReader signals,
      InstantSource clock) {
    this.sources = List.copyOf(sources);
    this.settings = settings;
    this.items = items;
    this.ease = ease;
    this.signals = signals;
    this.clock = clock;
  }

  @Override
  /**
   * Every algorithm as configured or, for an email of an experiment arm (its token says which), only
   * the arm's algorithms.
   */
  public Recommendations recommend(RecommendationRequest request) {
    Set<Algorithm> arm = Algorithm.ofArm(request.arm());
    return recommend(request, arm.isEmpty() ? EnumSet.allOf(Algorithm.class) : arm);
  }

  /** Blends only the algorithms in {@code only} (an experiment's arm); the rest as configured. */
  public Recommendations recommend(RecommendationRequest request, Set<Algorithm> only) {
    RecommenderSettings now = settings.get();
    ItemModel model = items.get();
    UserSignals user = signals.read(request.subscriberId(), request.deadline());
    var context = new CandidateSource.Context(user, model, ease.get());
    Map<String, Blended> blended = blend(context, now, request, only);
    var ranked = new ArrayList<>(blended.values());
    ranked.sort(
        Comparator.comparingDouble(Blended::total).reversed().thenComparing(Blended::productId));
    Set<String> exclude = request.exclude();
    boolean excludeBought = now.blend().excludeBought();
    var places = new Places(
        request.k(),
        now.blend(),
        model,
        id -> !exclude.contains(id) && !(excludeBought && user.bought(id)));
    for (Blended candidate : ranked) {
      if (places.full()) break;
      places.offer(new Places.Offer(
          candidate.productId(), candidate.total(), candidate.reasons(), candidate.shares()));
    }
    for (String id : model.popular()) {
      if (places.full()) break;
      places.offer(new Places.Offer(id, 0, List.of(FILL), List.of(0.0)));
    }
    return new Recommendations(places.result());
  }

  private Map<String, Blended> blend(
      CandidateSource.Context context,
      RecommenderSettings settings,
      RecommendationRequest request,
      Set<Algorithm> only) {
    int n = Math.max(MIN_CANDIDATES, CANDIDATES_PER_PLACE * request.k());
    var offered = new ArrayList<Offered>(sources.size());
    for (CandidateSource source : sources) {
      if (!clock.instant().isBefore(request.deadline())) break;
      if (!only.contains(source.algorithm())) continue;
      AlgorithmSettings algorithm = settings.of(source.algorithm());
      if (!algorithm.enabled() || algorithm.weight() <= 0) continue;
      // all it scores (bounded by the user's history or its model), or its best n of the catalogue
      boolean wholeCatalogue = source instanceof CandidateSource.WholeCatalogue;
      List<Scored> scored =
          source.candidates(context, algorithm, wholeCatalogue ? n : Integer.MAX_VALUE);
      if (scored.isEmpty() || scored.getFirst().score() <= 0) continue;
      offered.add(new Offered(source, algorithm, scored, Math.min(n, scored.size())));
    }
    var blended = new HashMap<String, Blended>();
    for (Offered one : offered)
      for (Scored candidate : one.own())
        blended.computeIfAbsent(candidate.productId(), Blended::new);
    // every algorithm weighs every candidate, also those outside its own best n
    for (Offered one : offered) {
      String reason = one.source().algorithm().id();
      double weight = one.settings().weight();
      double best = one.scored().getFirst().score();
      if (one.source() instanceof CandidateSource.WholeCatalogue whole) {
        for (Scored candidate : one.own())
          add(blended, candidate.productId(), reason, weight * candidate.score() / best);
        var others = new HashSet<>(blended.keySet());
        for (Scored candidate : one.own()) others.remove(candidate.productId());
        if (!others.isEmpty() && clock.instant().isBefore(request.deadline()))
          whole
              .scoresOf(context, one.settings(), others)
              .forEach((id, score) -> add(blended, id, reason, weight * Math.min(1, score / best)));
      } else {
        for (Scored candidate : one.scored()) {
          Blended product = blended.get(candidate.productId());
          if (product != null && candidate.score() > 0)
            product.add(reason, weight * candidate.score() / best);
        }
      }
    }
    return blended;
  }

  private static void add(Map<String, Blended> blended, String id, String reason, double share) {
    if (share > 0) blended.computeIfAbsent(id, Blended::new).add(reason, share);
  }

  /**
   * One algorithm's scored products, best first (all of them, or its best n of the catalogue); its
   * own candidates are the first {@code offers}, and its best score weighs 1.
   */
  private record Offered(
      CandidateSource source, AlgorithmSettings settings, List<Scored> scored, int offers) {
    List<Scored> own() {
      return scored.subList(0, offers);
    }
  }

  /** One product's contributions, by algorithm. */
  private static final class Blended {
    private final String productId;
    private final Map<String, Double> shares = new HashMap<>(4);
    private double total;

    Blended(String productId) {
      this.productId = productId;
    }

    void add(String algorithm, double share) {
      shares.merge(algorithm, share, Double::sum);
      total += share;
    }

    String productId() {
      return productId;
    }

    double total() {
      return total;
    }

    /** The algorithms, the heaviest first. */
    List<String> reasons() {
      return heaviestFirst().map(Map.Entry::getKey).toList();
    }

    /** Each algorithm's share of the total, in the order of {@link #reasons()}. */
    List<Double> shares() {
      return heaviestFirst().map(Map.Entry::getValue).toList();
    }

    private Stream<Map.Entry<String, Double>> heaviestFirst() {
      return shares.entrySet().stream()
          .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
              .thenComparing(Map.Entry.comparingByKey()));
    }
  }
}
