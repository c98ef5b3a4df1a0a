package dev.tidings.sample;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/** The brands and categories one subscriber follows: 0 to 5, mostly popular brands and their own favourites. */
final class Follows {
  static final List<String> COLUMNS =
      List.of("subscriberId", "targetType", "targetId", "followedAt");
  private static final int[] COUNT_WEIGHTS = {20, 25, 20, 15, 12, 8}; // for 0..5 follows
  private static final long HALF_YEAR_SECONDS = Duration.ofDays(182).toSeconds();

  private final SampleShopSpec spec;
  private final List<Catalog.Brand> brands;

  Follows(SampleShopSpec spec) {
    this.spec = spec;
    this.brands = Products.brandsByPopularity(spec.seed());
  }

  void forSubscriber(long subscriber, Consumer<Object[]> rows) {
    SplittableRandom random = Rng.of(spec.seed(), Rng.FOLLOW, subscriber);
    var affinity = Affinity.of(spec.seed(), subscriber, brands.size());
    int count = weighted(random);
    var targets = new LinkedHashSet<String>();
    var kinds = new ArrayList<String>();
    for (int attempt = 0; targets.size() < count && attempt < 20; attempt++) {
      String kind;
      String target;
      double r = random.nextDouble();
      if (r < 0.35) {
        kind = "brand";
        target = brands
            .get(targets.isEmpty() ? affinity.favouriteBrand() : affinity.secondBrand())
            .name();
      } else if (r < 0.7) {
        kind = "brand";
        target = brands.get(Rng.zipf(random, brands.size())).name();
      } else {
        kind = "category";
        target = Catalog.FOLLOWABLE_CATEGORIES.get(
            Rng.zipf(random, Catalog.FOLLOWABLE_CATEGORIES.size()));
      }
      if (targets.add(kind + "\u0000" + target)) kinds.add(kind);
    }
    int i = 0;
    for (String key : targets) {
      String target = key.substring(key.indexOf('\u0000') + 1);
      Instant followedAt = spec.activityEnd().minusSeconds(1 + random.nextLong(HALF_YEAR_SECONDS));
      rows.accept(
          new Object[] {Subscribers.id(subscriber), kinds.get(i++), target, followedAt.toString()});
    }
  }

  private static int weighted(SplittableRandom random) {
    int ticket = random.nextInt(100);
    for (int count = 0; count < COUNT_WEIGHTS.length; count++) {
      ticket -= COUNT_WEIGHTS[count];
      if (ticket < 0) return count;
    }
    return COUNT_WEIGHTS.length - 1;
  }
}
