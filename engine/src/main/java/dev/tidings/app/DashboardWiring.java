package dev.tidings.app;

import dev.tidings.activity.aggregate.BacklogAggregation;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.SubscriberPrices;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.recommend.Recommender;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.dashboard.CampaignEditorSources;
import dev.tidings.web.dashboard.DashboardRoutes;
import dev.tidings.web.dashboard.DashboardSources;
import dev.tidings.web.dashboard.JourneyPagesSources;
import dev.tidings.web.dashboard.SessionSignOuts;
import dev.tidings.web.dashboard.SubscriberPagesSources;
import dev.tidings.web.dashboard.WebhookPagesSources;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;

/**
 * The dashboard: read-only queries of the campaign, delivery, open-time, catalog and audience
 * capabilities, the node's dependency probes and the depths of the queues the capabilities use; and
 * the journeys' pages, through the journeys capability's store, figures and templates.
 */
final class DashboardWiring implements Capability {
  private final Infrastructure infrastructure;
  private final CampaignWiring campaigns;
  private final OptimizeWiring optimize;
  private final Supplier<Recommender> recommender;
  private final Supplier<BacklogAggregation> counting;
  private final Supplier<SubscriberPrices> prices;
  private final WebhooksWiring webhooks;
  private final JourneysWiring journeys;

  /** {@code prices}: an email's products as its subscriber's market sells them. */
  DashboardWiring(
      Infrastructure infrastructure,
      CampaignWiring campaigns,
      OptimizeWiring optimize,
      Supplier<Recommender> recommender,
      Supplier<BacklogAggregation> counting,
      Supplier<SubscriberPrices> prices,
      WebhooksWiring webhooks,
      JourneysWiring journeys) {
    this.webhooks = webhooks;
    this.journeys = journeys;
    this.counting = counting;
    this.prices = prices;
    this.infrastructure = infrastructure;
    this.campaigns = campaigns;
    this.optimize = optimize;
    this.recommender = recommender;
  }

  @Override
  public List<RouteGroup> routes() {
    var jdbi = infrastructure.database().jdbi();
    // the pages' figures and lists only read: a standby's pool when TIDINGS_DB_READ_URL is set
    var reads = infrastructure.readDatabase().jdbi();
    var clock = infrastructure.clock();
    var queue = infrastructure.workQueue();
    return List.of(new DashboardRoutes(
        new DashboardSources(
            campaigns.campaigns(),
            campaigns.emails(),
            new DeliveryStats(reads),
            new ShownProducts(reads),
            new CatalogService(reads, clock),
            new Notifications(
                reads, clock, Notifications.ProductShelf.ALL_AVAILABLE, infrastructure.metrics()),
            (campaign, experiment) ->
                optimize.experiments().report(campaign, OptimizeExperiments.plan(experiment)),
            new SubscriberService(reads, clock),
            request -> recommender.get().recommend(request),
            infrastructure.dependencyChecks(),
            queue,
            WorkQueues.names(infrastructure),
            () -> {
              var aggregation = counting.get();
              return new DashboardSources.Counting(
                  aggregation.waiting(), aggregation.lag(clock.instant()));
            },
            infrastructure::nodes,
            infrastructure.apiKey(),
            clock,
            infrastructure
                .settings()
                .publicUrl()
                .getScheme()
                .toLowerCase(Locale.ROOT)
                .equals("https"),
            (subscriberId, ids) -> prices.get().of(subscriberId, ids)),
        Optional.of(editor(jdbi)),
        new SessionSignOuts(jdbi, clock),
        Optional.of(infrastructure.authThrottle()),
        infrastructure.metrics(),
        Optional.of(subscriberPages(jdbi, reads)),
        Optional.of(new WebhookPagesSources(webhooks.endpoints(), webhooks.deadLetters())),
        Optional.of(journeyPages(jdbi))));
  }

  /**
   * The journeys' pages read and change journeys only through what the journeys capability
   * publishes, on the primary: the page after an edit or a state change must show it.
   */
  private JourneyPagesSources journeyPages(Jdbi primary) {
    return new JourneyPagesSources(
        journeys.store(),
        journeys.figures(),
        journeys.drafts(),
        journeys::changed,
        campaigns.campaigns(),
        new SubscriberService(primary, infrastructure.clock()),
        infrastructure.clock());
  }

  /** Suppressions on the primary (the page after a change shows it), the rest from the read pool. */
  private SubscriberPagesSources subscriberPages(Jdbi primary, Jdbi reads) {
    var clock = infrastructure.clock();
    return new SubscriberPagesSources(
        new SubscriberService(reads, clock),
        new FollowService(reads, clock),
        new SuppressionService(primary, clock),
        new SuppressionChanges(infrastructure.metrics()),
        SubscriberHistoryWiring.history(reads, campaigns::campaigns),
        new CatalogService(reads, clock),
        request -> recommender.get().recommend(request),
        clock);
  }

  /** The campaign editor's services, on the primary: see {@link CampaignEditorSources}. */
  private CampaignEditorSources editor(Jdbi primary) {
    return new CampaignEditorSources(
        campaigns.campaigns(),
        new SubscriberService(primary, infrastructure.clock()),
        campaigns.templates(),
        campaigns.previews(),
        campaigns.testSends(),
        infrastructure.clock());
  }
}
