package dev.tidings.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The fan-out and the digests, for Prometheus: {@code tidings_notify_fanout_total{source}}, the
 * notifications put in subscribers' day buckets by what caused them ({@code followers} and {@code
 * nearby} of published content, {@code product_news} for a brand's new product); {@code
 * tidings_notify_digests_sent_total}, digests recorded as sent in a campaign's email; {@code
 * tidings_notify_digests_recovered_total}, digests marked sent from the note their handover left in the
 * send ledger, by the worker that settled a recipient whose worker stopped between the send and the
 * flush.
 */
final class NotifyMetrics {
  static final String FANOUT = "tidings_notify_fanout";
  static final String DIGESTS = "tidings_notify_digests_sent";
  static final String RECOVERED = "tidings_notify_digests_recovered";

  private final Counter followers;
  private final Counter nearby;
  private final Counter productNews;
  private final Counter digests;
  private final Counter recovered;

  NotifyMetrics(MeterRegistry registry) {
    this.followers = fanout(registry, "followers");
    this.nearby = fanout(registry, "nearby");
    this.productNews = fanout(registry, "product_news");
    this.digests = Counter.builder(DIGESTS)
        .description("Digests recorded as sent in a campaign's email")
        .register(registry);
    this.recovered = Counter.builder(RECOVERED)
        .description("Digests marked sent from their handover's note after their worker stopped")
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

  void digestRecovered() {
    recovered.increment();
  }
}
