package dev.tidings.app;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** Every capability a node runs, in the order their routes are registered: a new one is added here. */
final class Capabilities {
  private Capabilities() {}

  static List<Capability> of(Infrastructure infrastructure) {
    // Campaigns write the emails the send pipeline sends, and start the runs it carries: each asks
    // the other only when first used. A composer named by a system property (tests, benchmarks)
    // takes the campaigns' place.
    var campaignsHolder = new AtomicReference<CampaignWiring>();
    var named = SendingWiring.composerNamedBySystemProperty();
    var sending = new SendingWiring(
        infrastructure,
        () -> named.get().or(() -> Optional.of(campaignsHolder.get().emails())));
    var delivery = new DeliveryWiring(infrastructure);
    var catalog = new CatalogWiring(infrastructure);
    var notify = new NotifyWiring(infrastructure, catalog::catalog);
    var optimize =
        new OptimizeWiring(infrastructure, () -> campaignsHolder.get().campaigns());
    var campaigns = new CampaignWiring(
        infrastructure,
        (infra, composer) -> sending.sends(),
        delivery::campaignHeadlines,
        notify::digests,
        optimize::ledger);
    campaignsHolder.set(campaigns);
    var recommend = new RecommendWiring(infrastructure);
    return List.of(
        new SampleShopWiring(),
        catalog,
        new AudienceWiring(infrastructure),
        new ActivityWiring(infrastructure),
        notify,
        optimize,
        recommend,
        new OpenTimeWiring(
            infrastructure,
            () -> new ExperimentArms(
                ExperimentArms.Blend.of(recommend.recommender()),
                () -> campaignsHolder.get().campaigns(),
                optimize.experiments(),
                infrastructure.clock())),
        delivery,
        campaigns,
        sending,
        new DeliveryWebhooksWiring(infrastructure, delivery::sink),
        new DashboardWiring(
            infrastructure, () -> campaigns, () -> optimize, recommend::recommender));
  }
}
