package dev.tidings.app;

import dev.tidings.campaign.UnwiredSends;
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
        new DeliveryWiring(infrastructure),
        // The send pipeline is plugged in here: replace UnwiredSends with the engine's factory.
        new CampaignWiring(infrastructure, (infra, composer) -> new UnwiredSends()));
  }
}
