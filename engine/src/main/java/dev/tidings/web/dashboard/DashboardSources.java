package dev.tidings.web.dashboard;

import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.Experiment;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.optimize.ExperimentReport;
import dev.tidings.recommend.Recommender;
import dev.tidings.web.DependencyCheck;
import java.time.InstantSource;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What the dashboard reads, handed over by the wiring: each capability's read side, the node's
 * dependency probes and queue depths, and the API key that signs sessions.
 *
 * @param secureCookies whether the session cookie is {@code Secure} (the public URL is https)
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
    List<QueueGauge> queues,
    Secret apiKey,
    InstantSource clock,
    boolean secureCookies) {

  /** A campaign's experiment as it stands (and the decision it keeps). */
  @FunctionalInterface
  public interface ExperimentReports {
    ExperimentReport of(long campaignId, Experiment experiment);
  }

  /** One work queue the system page shows, and how to measure it. */
  public record QueueGauge(String name, LongSupplier depth) {}

  public DashboardSources {
    dependencies = List.copyOf(dependencies);
    queues = List.copyOf(queues);
  }
}
