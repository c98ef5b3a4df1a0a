package dev.tidings.app;

import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.webhook.DeliveryWebhooks;
import dev.tidings.delivery.webhook.PostgresReplayGuard;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.delivery.DeliveryWebhookRoutes;
import java.util.List;
import java.util.function.Supplier;

/**
 * The providers' webhooks and the delivery-events API, handing verified receipts to the delivery
 * pipeline's {@link ReceiptSink}. The sink is a supplier so that the pipeline (its queue, its
 * batcher) is built on the first receipt, not when the node starts.
 */
public final class DeliveryWebhooksWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Supplier<ReceiptSink> sink;
  private final Lazy<DeliveryWebhooks> webhooks;

  DeliveryWebhooksWiring(Infrastructure infrastructure, Supplier<ReceiptSink> sink) {
    this.infrastructure = infrastructure;
    this.sink = sink;
    this.webhooks = Lazy.of(() -> DeliveryWebhooks.configured(
        infrastructure.settings().webhooks(),
        infrastructure.clock(),
        () -> new PostgresReplayGuard(infrastructure.database().jdbi(), infrastructure.clock())));
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new DeliveryWebhookRoutes(
        webhooks.get(), sink, infrastructure.settings().maxBodyBytes(), infrastructure.metrics()));
  }

  /**
   * Until the delivery pipeline is connected here, receipts cannot be queued: providers get 503 and
   * retry, and nothing is answered 2xx that was not kept.
   */
  static ReceiptSink notConnected() {
    return new ReceiptSink() {
      @Override
      public void accept(List<dev.tidings.delivery.Receipt> receipts) {
        throw new QueueUnavailableException("the delivery pipeline is not connected on this node");
      }

      @Override
      public void unknown(ReceiptSource source, String eventType, String rawEvent) {
        throw new QueueUnavailableException("the delivery pipeline is not connected on this node");
      }
    };
  }
}
