package dev.tidings.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The fan-out and the digests, for Prometheus: {@code tidings_notify_fanout_total{source}}, the
 * notifications put in subscribers' day buckets by what caused them ({@code followers} and {@code
 * nearby} of published content, {@code product_news} for a brand's new product); {@code
 * tidings_notify_digests_sent_total}, digests recorded as sent in a campaign's email.
 */
final class NotifyMetrics {
  static final String FANOUT = "tidings_notify_fanout";
  static final String DIGESTS = "tidings_notify_digests_sent";

  private final Counter followers;
  private final Counter nearby;
  private final Counter productNews;
  private final Counter digests;

  NotifyMetrics(MeterRegistry registry) {
    this.followers = fanout(registry, "followers");
    this.nearby = fanout(registry, "nearby");
    this.productNews = fanout(registry, "product_news");
    this.digests = Counter.builder(DIGESTS)
        .description("Digests recorded as sent in a campaign's email")
        .register(registry);
  }

  private static Counter fanout(MeterRegistry registry, String source) {
    return Counter.builder(FANOUT)
        .description("Notifications put in subscribers' day buckets, by what caused them")
        .tag("source", source)
        .register(registry);
  }

  void published(Notifications.Published told) {
    followers.increment(told.followers());
    nearby.increment(told.nearby());
  }

  void productNewsTold(long notifications) {
    productNews.increment(notifications);
  }

  void digestSent() {
    digests.increment();
  }
}
