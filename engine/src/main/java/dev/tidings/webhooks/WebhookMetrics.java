package dev.tidings.webhooks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhooks' meters: attempts by outcome, failed attempts per endpoint (endpoints are few and
 * operator-made, {@link WebhookEndpoints#MAX_ENDPOINTS} at most), the dead letters waiting and how
 * long a POST took.
 */
public final class WebhookMetrics {
  private static final Logger log = LoggerFactory.getLogger(WebhookMetrics.class);

  private final MeterRegistry registry;
  private final Counter delivered;
  private final Counter failed;
  private final Counter dead;
  private final Timer latency;

  public WebhookMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.delivered = outcome("delivered");
    this.failed = outcome("failed");
    this.dead = outcome("dead");
    this.latency = Timer.builder("tidings_webhook_delivery")
        .description("How long one webhook POST took, answered or not")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(5))
        .maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry);
  }

  private Counter outcome(String outcome) {
    return Counter.builder("tidings_webhook_deliveries")
        .description("Webhook delivery attempts: delivered (2xx), failed (retried later) or dead"
            + " (the last attempt failed)")
        .tag("outcome", outcome)
        .register(registry);
  }

  /** The dead letters waiting, read when scraped; NaN while the database does not answer. */
  public void deadLetters(LongSupplier count) {
    Gauge.builder("tidings_webhook_dead_letters", () -> {
          try {
            return (double) count.getAsLong();
          } catch (RuntimeException e) {
            log.debug("cannot count the webhook dead letters", e);
            return Double.NaN;
          }
        })
        .description("Webhook deliveries that failed every attempt, waiting for a replay")
        .register(registry);
  }

  void delivered(Duration took) {
    latency.record(took);
    delivered.increment();
  }

  void failed(String endpointId, Duration took) {
    latency.record(took);
    failed.increment();
    Counter.builder("tidings_webhook_endpoint_failures")
        .description("Failed webhook attempts per endpoint")
        .tag("endpoint", endpointId)
        .register(registry)
        .increment();
  }

  void dead() {
    dead.increment();
  }
}
