package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.recommend.RecommendationRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A small shop for the algorithms' and the blender's tests: products, aggregates and follows in
 * memory, at a fixed moment.
 */
final class Shop {
  static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  static final LocalDate TODAY = LocalDate.ofInstant(NOW, ZoneOffset.UTC);
  static final YearMonth MONTH = YearMonth.from(TODAY);

  final List<ProductFacts> products = new ArrayList<>();
  final InMemoryAggregates aggregates = new InMemoryAggregates();
  final Map<String, Follows> follows = new HashMap<>();
  final AtomicReference<RecommenderSettings> settings =
      new AtomicReference<>(RecommenderSettings.defaults());
  InstantSource clock = InstantSource.fixed(NOW);

  Shop product(String id, String brand, String category) {
    return product(id, brand, category, true, NOW.minus(Duration.ofDays(365)));
  }

  Shop product(String id, String brand, String category, boolean available, Instant createdAt) {
    products.add(new ProductFacts(id, brand, category, available, createdAt));
    return this;
  }

  static KeyPart.Day daysAgo(int days) {
    return new KeyPart.Day(TODAY.minusDays(days));
  }

  static KeyPart.Month monthsAgo(int months) {
    return new KeyPart.Month(MONTH.minusMonths(months));
  }

  static KeyPart.Bucket all() {
    return new KeyPart.AllTime();
  }

  /** {@code events} on the item {@code days} ago, in its day, month and all-time counts. */
  Shop popular(String item, int daysAgo, double events) {
    aggregates.add(Keys.itemPopularity(item, daysAgo(daysAgo)), events);
    aggregates.add(
        Keys.itemPopularity(item, new KeyPart.Month(YearMonth.from(TODAY.minusDays(daysAgo)))),
        events);
    aggregates.add(Keys.itemPopularity(item, all()), events);
    return this;
  }

  Shop coViewed(String a, String b, double sessions) {
    aggregates.add(Keys.coView(a, b, all()), sessions).add(Keys.coView(b, a, all()), sessions);
    return this;
  }

  Shop coBought(String a, String b, double orders) {
    aggregates.add(Keys.coPurchase(a, b, all()), orders).add(Keys.coPurchase(b, a, all()), orders);
    return this;
  }

  Shop viewed(String user, String item, int daysAgo, double events) {
    aggregates.add(Keys.views(user, item, daysAgo(daysAgo)), events);
    return this;
  }

  Shop bought(String user, String item, int monthsAgo, double quantity) {
    aggregates.add(Keys.purchases(user, item, monthsAgo(monthsAgo)), quantity);
    aggregates.add(Keys.purchases(user, item, all()), quantity);
    return this;
  }

  Shop likesBrand(String user, String brand, int monthsAgo, double events) {
    aggregates.add(Keys.userBrand(user, brand, monthsAgo(monthsAgo)), events);
    aggregates.add(Keys.userBrand(user, brand, all()), events);
    return this;
  }

  Shop likesCategory(String user, String category, int monthsAgo, double events) {
    aggregates.add(Keys.userCategory(user, category, monthsAgo(monthsAgo)), events);
    aggregates.add(Keys.userCategory(user, category, all()), events);
    return this;
  }

  Shop follows(String user, Set<String> brands, Set<String> categories) {
    follows.put(user, new Follows(brands, categories));
    return this;
  }

  Shop set(Algorithm algorithm, AlgorithmSettings changed) {
    settings.set(settings.get().with(algorithm, changed));
    return this;
  }

  /** Only {@code algorithm} enabled, with its default settings otherwise. */
  Shop only(Algorithm algorithm) {
    for (Algorithm each : Algorithm.values()) {
      AlgorithmSettings current = settings.get().of(each);
      set(each, new AlgorithmSettings(each == algorithm, current.weight(), current.params()));
    }
    return this;
  }

  ItemModel items() {
    AlgorithmSettings popularity = settings.get().of(Algorithm.POPULARITY);
    return ItemModel.load(
        () -> products,
        aggregates,
        Neighbourhood.load(aggregates, NOW),
        NOW,
        TODAY,
        popularity.param(Algorithm.POPULARITY, "halfLifeDays"),
        (int) popularity.param(Algorithm.POPULARITY, "windowDays"),
        popularity.param(Algorithm.POPULARITY, "purchaseWeight"));
  }

  UserSignals user(String id) {
    return UserSignals.of(
        id,
        aggregates.under(Keys.user(id), "", "", 10_000),
        follows.getOrDefault(id, Follows.NONE),
        TODAY);
  }

  /** One algorithm's candidates for {@code user}, with the shop's settings. */
  List<Scored> candidates(CandidateSource source, String user, int n) {
    ItemModel items = items();
    EaseModel ease = source.algorithm() == Algorithm.EASE
        ? EaseModel.fit(
            items, 100, settings.get().of(Algorithm.EASE).param(Algorithm.EASE, "lambda"), NOW)
        : null;
    return source.candidates(
        new CandidateSource.Context(user(user), items, ease),
        settings.get().of(source.algorithm()),
        n);
  }

  List<String> ids(CandidateSource source, String user, int n) {
    return candidates(source, user, n).stream().map(Scored::productId).toList();
  }

  Blender blender() {
    ItemModel items = items();
    EaseModel ease = EaseModel.fit(items, 100, 300, NOW);
    return new Blender(
        CandidateSource.all(),
        settings::get,
        () -> items,
        () -> ease,
        new SignalReader(
            aggregates, user -> follows.getOrDefault(user, Follows.NONE), clock, () -> 90, null),
        clock);
  }

  static RecommendationRequest ask(String user, int k, Set<String> exclude) {
    return new RecommendationRequest(
        user, k, exclude, Optional.empty(), Locale.ROOT, NOW.plusSeconds(1));
  }
}
