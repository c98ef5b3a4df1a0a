package dev.tidings.catalog;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/** What the scheduled product feed did, for operators: fetches by outcome, products changed, last success. */
final class ProductFeedMetrics {
  private final Map<ProductFeedFetch.Outcome, Counter> fetches =
      new EnumMap<>(ProductFeedFetch.Outcome.class);
  private final Counter updated;
  private final Counter unavailable;
  private final AtomicLong lastSuccess = new AtomicLong();

  ProductFeedMetrics(MeterRegistry registry) {
    for (var outcome : ProductFeedFetch.Outcome.values()) {
      fetches.put(
          outcome,
          Counter.builder("tidings_product_feed_fetches_total")
              .description("Fetches of the product feed by what they came to")
              .tag("outcome", outcome.label())
              .register(registry));
    }
    updated = Counter.builder("tidings_product_feed_products_total")
        .description(
            "Products the product feed changed: upserted, or marked unavailable on leaving it")
        .tag("change", "updated")
        .register(registry);
    unavailable = Counter.builder("tidings_product_feed_products_total")
        .description(
            "Products the product feed changed: upserted, or marked unavailable on leaving it")
        .tag("change", "unavailable")
        .register(registry);
    Gauge.builder("tidings_product_feed_last_success_seconds", lastSuccess, AtomicLong::get)
        .description("When this node last fetched the product feed successfully (imported or not"
            + " modified), in seconds since the epoch; 0 before the first")
        .register(registry);
  }

  void fetched(ProductFeedFetch.Outcome outcome) {
    Objects.requireNonNull(fetches.get(outcome)).increment();
  }

  void imported(long products, long markedUnavailable) {
    updated.increment(products);
    unavailable.increment(markedUnavailable);
  }

  void succeeded(Instant at) {
    lastSuccess.set(at.getEpochSecond());
  }
}
