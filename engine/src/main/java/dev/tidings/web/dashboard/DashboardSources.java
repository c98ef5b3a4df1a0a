package dev.tidings.web.dashboard;

import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.Experiment;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.SubscriberPrices;
import dev.tidings.cluster.NodeRegistry;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.optimize.ExperimentReport;
import dev.tidings.queue.WorkQueue;
import dev.tidings.recommend.Recommender;
import dev.tidings.web.DependencyCheck;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the dashboard reads, handed over by the wiring: each capability's read side, the node's
 * dependency probes, the work queues by name (their depths, ages and dead letters, which an operator
 * may requeue or drop), counting's backlog, the installation's nodes, and the API key that signs
 * sessions.
 *
 * @param secureCookies whether the session cookie is {@code Secure} (the public URL is https)
 * @param prices the products of an email as its subscriber's market sells them, as the email showed
 *     them
 */
public record DashboardSources(
    CampaignService campaigns,
    CampaignEmails emails,
    DeliveryStats delivery,
    ShownProducts shown,
    CatalogService catalog,
    Notifications notifications,
    ExperimentReports experiments,
    SubscriberService subscribers,
    Recommender recommender,
    List<DependencyCheck> dependencies,
    WorkQueue workQueue,
    List<String> queues,
    Supplier<Counting> counting,
    Supplier<List<NodeRegistry.Node>> nodes,
    Secret apiKey,
    InstantSource clock,
    boolean secureCookies,
    Pricing prices) {

  /** Products as one subscriber can buy them ({@link SubscriberPrices#of}). */
  @FunctionalInterface
  public interface Pricing {
    SubscriberPrices.AsSold of(String subscriberId, Collection<String> productIds);

    /** Every product at its own price: an installation whose markets the dashboard is not told. */
    static Pricing catalogue(CatalogService catalog) {
      return (subscriberId, ids) ->
          new SubscriberPrices.AsSold(catalog.getAll(ids), Optional.empty());
    }
  }

  /** A dashboard that prices every product at its own price. */
  public DashboardSources(
      CampaignService campaigns,
      CampaignEmails emails,
      DeliveryStats delivery,
      ShownProducts shown,
      CatalogService catalog,
      Notifications notifications,
      ExperimentReports experiments,
      SubscriberService subscribers,
      Recommender recommender,
      List<DependencyCheck> dependencies,
      WorkQueue workQueue,
      List<String> queues,
      Supplier<Counting> counting,
      Supplier<List<NodeRegistry.Node>> nodes,
      Secret apiKey,
      InstantSource clock,
      boolean secureCookies) {
    this(
        campaigns,
        emails,
        delivery,
        shown,
        catalog,
        notifications,
        experiments,
        subscribers,
        recommender,
        dependencies,
        workQueue,
        queues,
        counting,
        nodes,
        apiKey,
        clock,
        secureCookies,
        Pricing.catalogue(catalog));
  }

  /** A campaign's experiment as it stands (and the decision it keeps). */
  @FunctionalInterface
  public interface ExperimentReports {
    ExperimentReport of(long campaignId, Experiment experiment);
  }

  /** Activity events stored and not counted yet, and how long the oldest of them has waited. */
  public record Counting(long waiting, Duration lag) {}

  public DashboardSources {
    dependencies = List.copyOf(dependencies);
    queues = List.copyOf(queues);
  }
}
