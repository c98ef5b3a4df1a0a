package dev.tidings.app;

import java.util.List;

/** Every capability a node runs, in the order their routes are registered: a new one is added here. */
final class Capabilities {
  private Capabilities() {}

  static List<Capability> of(Infrastructure infrastructure) {
    return List.of(
        new SampleShopWiring(),
        new CatalogWiring(infrastructure),
        new AudienceWiring(infrastructure),
        new ActivityWiring(infrastructure),
        new OpenTimeWiring(infrastructure),
        // the delivery pipeline's ReceiptSink is connected here
        new DeliveryWebhooksWiring(infrastructure, DeliveryWebhooksWiring::notConnected));
  }
}
