package dev.tidings.app;

import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.webhook.DeliveryWebhooks;
import dev.tidings.delivery.webhook.PostgresReplayGuard;
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
        webhooks.get(),
        sink,
        infrastructure.settings().maxBodyBytes(),
        infrastructure.clock(),
        infrastructure.metrics()));
  }
}
