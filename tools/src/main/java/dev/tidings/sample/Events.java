package dev.tidings.sample;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One subscriber's week: sessions of a few minutes at random times, each a run of product views
 * (popular products and the subscriber's favourite brands far more often than the rest), some of them
 * clicked, a few put in the cart, some of those bought.
 */
final class Events {
  static final List<String> COLUMNS =
      List.of("userId", "type", "itemId", "timestamp", "eventId", "quantity", "price");
  private static final long WEEK_SECONDS = Duration.ofDays(7).toSeconds();
  private static final long LATEST_SESSION_START =
      WEEK_SECONDS - Duration.ofHours(2).toSeconds();

  private final SampleShopSpec spec;
  private final Products products;
  private final int brandCount;
  private final String runTag;

  Events(SampleShopSpec spec, Products products) {
    this.spec = spec;
    this.products = products;
    this.brandCount = products.brandsByPopularity().size();
    // Event ids must differ between seeds: the importer drops an id it has seen as a replay.
    this.runTag = Long.toHexString(Rng.mix(spec.seed()) & 0xffff_ffffL);
  }

  void forSubscriber(long subscriber, Consumer<Object[]> rows) {
    if (spec.products() == 0) return;
    SplittableRandom random = Rng.of(spec.seed(), Rng.EVENT, subscriber);
    var affinity = Affinity.of(spec.seed(), subscriber, brandCount);
    int remaining = (int) Math.round(spec.eventsPerSubscriber() * affinity.activity());
    String userId = Subscribers.id(subscriber);
    Instant weekStart = spec.activityEnd().minusSeconds(WEEK_SECONDS);
    var emitter = new Emitter(rows, userId, runTag + "-" + subscriber);
    while (remaining > 0) {
      Instant at = weekStart.plusSeconds(random.nextLong(LATEST_SESSION_START));
      int views = 1 + random.nextInt(8);
      for (int v = 0; v < views && remaining > 0; v++) {
        long product = pickProduct(random, affinity);
        String itemId = Products.id(product);
        emitter.emit("view", itemId, at, null, null);
        remaining--;
        at = at.plusSeconds(8 + random.nextInt(80));
        if (remaining > 0 && random.nextDouble() < 0.3) {
          emitter.emit("click", itemId, at, null, null);
          remaining--;
          at = at.plusSeconds(3 + random.nextInt(30));
        }
        if (remaining > 0 && random.nextDouble() < 0.1) {
          int quantity = random.nextDouble() < 0.85 ? 1 : 2;
          emitter.emit("add_to_cart", itemId, at, quantity, null);
          remaining--;
          at = at.plusSeconds(20 + random.nextInt(200));
          if (remaining > 0 && random.nextDouble() < 0.4) {
            emitter.emit(
                "purchase", itemId, at, quantity, products.product(product).price());
            remaining--;
            at = at.plusSeconds(10 + random.nextInt(60));
          }
        }
      }
    }
  }

  /** Most views go to the subscriber's brands, the rest to the shop's bestsellers; both Zipf-skewed. */
  private long pickProduct(SplittableRandom random, Affinity affinity) {
    long total = spec.products();
    double r = random.nextDouble();
    int brand = r < 0.45 ? affinity.favouriteBrand() : r < 0.6 ? affinity.secondBrand() : -1;
    if (brand >= 0 && brand < total) {
      long ofBrand =
          (total - 1 - brand) / brandCount + 1; // products brand, brand + 40, brand + 80, ...
      return brand
          + (long) brandCount * Rng.zipf(random, (int) Math.min(ofBrand, Integer.MAX_VALUE));
    }
    return Rng.zipf(random, (int) Math.min(total, Integer.MAX_VALUE));
  }

  private static final class Emitter {
    private final Consumer<Object[]> rows;
    private final String userId;
    private final String eventIdPrefix;
    private int sequence;

    Emitter(Consumer<Object[]> rows, String userId, String eventIdPrefix) {
      this.rows = rows;
      this.userId = userId;
      this.eventIdPrefix = "e-" + eventIdPrefix + "-";
    }

    void emit(
        String type,
        String itemId,
        Instant at,
        @Nullable Integer quantity,
        @Nullable BigDecimal price) {
      rows.accept(new Object[] {
        userId, type, itemId, at.toString(), eventIdPrefix + sequence++, quantity, price
      });
    }
  }
}
