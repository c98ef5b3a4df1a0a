package dev.tidings.web.delivery;

import dev.tidings.LogText;
import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.webhook.DeliveryEvents;
import dev.tidings.delivery.webhook.DeliveryWebhooks;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.ProviderWebhook;
import dev.tidings.delivery.webhook.WebhookRefused;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.Bodies;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.InputStream;
import java.time.InstantSource;
import java.util.Locale;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /webhooks/{sendgrid,ses,mailgun,postmark}} and {@code POST /api/v1/delivery-events}. A
 * request is verified and read whole before anything reaches the sink, and answered 2xx only after
 * {@link ReceiptSink#accept} returned (the receipts are queued). A provider without settings answers
 * 404 naming the setting: nothing unverified is ever taken.
 */
public final class DeliveryWebhookRoutes implements RouteGroup {
  private static final Logger log = LoggerFactory.getLogger(DeliveryWebhookRoutes.class);

  private final DeliveryWebhooks webhooks;
  private final Supplier<ReceiptSink> sink;
  private final long maxBodyBytes;
  private final InstantSource clock;
  private final MeterRegistry metrics;

  /**
   * {@code sink} is asked for on each request, so the pipeline behind it is built on first use;
   * {@code clock} says how far ahead a delivery event may be dated. Every provider's requests are
   * counted in {@code metrics} as {@value #REQUESTS}{@code _total{provider,result}}: accepted,
   * unauthenticated, forbidden, invalid, not_configured or failed (the receipts could not be queued).
   */
  public DeliveryWebhookRoutes(
      DeliveryWebhooks webhooks,
      Supplier<ReceiptSink> sink,
      long maxBodyBytes,
      InstantSource clock,
      MeterRegistry metrics) {
    this.webhooks = webhooks;
    this.sink = sink;
    this.maxBodyBytes = maxBodyBytes;
    this.clock = clock;
    this.metrics = metrics;
  }

  /** Prometheus adds {@code _total}. */
  public static final String REQUESTS = "tidings_webhook_requests";

  private void count(String provider, String result) {
    metrics.counter(REQUESTS, "provider", provider, "result", result).increment();
  }

  /** What a request gave the sink: receipts queued, events kept as unknown. */
  record Taken(int receipts, int unknown) {
    static Taken of(Mapped mapped) {
      return new Taken(mapped.receipts().size(), mapped.unmapped().size());
    }
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.post("/webhooks/{provider}", (request, response) -> {
      String name = request.path().pathParameters().get("provider");
      var provider = DeliveryWebhooks.PROVIDERS.get(name);
      if (provider == null) throw ApiProblem.notFound("no webhook of a provider named " + name);
      var configured = webhooks.named(name);
      if (configured.isEmpty()) {
        count(name, "not_configured");
        throw ApiProblem.notFound("the " + provider.shown()
            + " webhook is not configured on this node: set " + provider.settings()
            + " (see README, Settings)");
      }
      var webhook = configured.get();
      var received = new ProviderWebhook.Request(
          header -> request.headers().first(HeaderNames.create(header)), body(request));
      answer(response, name, () -> webhook.receive(received, sink.get()));
    });
    routing.post("/api/v1/delivery-events", (request, response) -> {
      var json = JsonBodies.read(request, maxBodyBytes);
      var receipts = DeliveryEvents.parse(json, clock);
      sink.get().accept(receipts);
      JsonBodies.write(response, 202, new Taken(receipts.size(), 0));
    });
  }

  private byte[] body(ServerRequest request) {
    return Bodies.read(request, maxBodyBytes, InputStream::readAllBytes);
  }

  private void answer(ServerResponse response, String provider, Supplier<Mapped> receive) {
    Mapped mapped;
    try {
      mapped = receive.get();
    } catch (RuntimeException failed) {
      // counted and logged here, answered where every failure is
      // (a refusal keeps its kind's status)
      if (failed instanceof WebhookRefused refused) {
        count(provider, refused.kind().name().toLowerCase(Locale.ROOT));
        // the detail may quote the provider's body: one line, whatever it holds
        log.warn("refused a {} webhook request: {}", provider, LogText.of(refused.detail()));
      } else {
        count(provider, "failed");
      }
      throw failed;
    }
    count(provider, "accepted");
    JsonBodies.ok(response, Taken.of(mapped));
  }
}
