package dev.tidings.app;

import dev.tidings.campaign.TemplateProducts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every capability a node runs, built in dependency order (each takes what the ones above it
 * publish) and listed in the order their routes are registered: a new one is added here.
 */
final class Capabilities {
  private Capabilities() {}

  static List<Capability> of(Infrastructure infrastructure, NodeAdditions additions) {
    var catalog = new CatalogWiring(infrastructure);
    var audience = new AudienceWiring(infrastructure);
    var activity = new ActivityWiring(infrastructure);
    var notify = new NotifyWiring(infrastructure, catalog::catalog, catalog::subscriberPrices);
    var optimize = new OptimizeWiring(infrastructure);
    var recommend = new RecommendWiring(infrastructure);
    var openTime = new OpenTimeWiring(
        infrastructure,
        recommend::recommender,
        additions.slotComputeOnce().orElse(OpenTimeWiring::coordinated),
        notify::notifications,
        catalog::markets,
        catalog::subscriberMarkets);
    var delivery = new DeliveryWiring(infrastructure);
    // the emails tell open-time what their template names: open-time never asks the campaigns
    var emails = CampaignWiring.emails(
        infrastructure,
        notify::digests,
        optimize::ledger,
        () -> new TemplateProducts(
            catalog.catalog()::namedBy, openTime.templateProducts()::put, infrastructure.clock()),
        () -> JourneysWiring.cards(infrastructure, catalog::subscriberPrices));
    var sending = new SendingWiring(
        infrastructure, () -> Optional.of(additions.composer().orElseGet(emails::get)));
    var campaigns = new CampaignWiring(
        infrastructure,
        emails,
        sending::sends,
        delivery::campaignHeadlines,
        optimize::experiments,
        () -> OpenTimeWiring.slotPreviews(openTime.images()));
    var webhooks = new DeliveryWebhooksWiring(infrastructure, delivery::sink);
    var outgoing = new WebhooksWiring(infrastructure, additions.webhooks());
    var subscriberHistory = new SubscriberHistoryWiring(infrastructure, campaigns::campaigns);
    var journeys = new JourneysWiring(infrastructure, campaigns::campaigns);
    // the listeners are asked for once every capability is built: each lists its own
    var listeners = new ArrayList<Capability>();
    var events = new EventsWiring(
        infrastructure,
        () -> listeners.stream().flatMap(c -> c.eventListeners().stream()).toList());
    var dashboard = new DashboardWiring(
        infrastructure,
        campaigns,
        optimize,
        recommend::recommender,
        activity::aggregation,
        catalog::subscriberPrices,
        outgoing,
        journeys);
    // a program's own capabilities first, as their routes are more specific than the dashboard's
    var all = new ArrayList<Capability>(additions.capabilities());
    all.addAll(List.of(
        catalog,
        audience,
        activity,
        notify,
        optimize,
        recommend,
        openTime,
        delivery,
        campaigns,
        sending,
        webhooks,
        outgoing,
        subscriberHistory,
        journeys,
        events,
        dashboard));
    listeners.addAll(all);
    return List.copyOf(all);
  }
}
