package dev.tidings.app;

import dev.tidings.activity.ActivityHistory;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.CampaignService;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.history.SubscriberHistory;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.audience.SubscriberHistoryRoutes;
import java.util.List;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;

/**
 * A subscriber's emails and activity over the API: each read through the service of the capability
 * that owns it (delivery, open-time, campaign, activity), on the node's database.
 */
final class SubscriberHistoryWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Supplier<CampaignService> campaigns;

  SubscriberHistoryWiring(Infrastructure infrastructure, Supplier<CampaignService> campaigns) {
    this.infrastructure = infrastructure;
    this.campaigns = campaigns;
  }

  /** The history read from {@code jdbi} (the primary here, the read pool for the dashboard). */
  static SubscriberHistory history(Jdbi jdbi, Supplier<CampaignService> campaigns) {
    return new SubscriberHistory(
        new DeliveryStats(jdbi),
        new ShownProducts(jdbi),
        id -> campaigns.get().get(id).map(campaign -> campaign.definition().name()),
        new ActivityHistory(jdbi));
  }

  @Override
  public List<RouteGroup> routes() {
    var jdbi = infrastructure.database().jdbi();
    return List.of(new SubscriberHistoryRoutes(
        new SubscriberService(jdbi, infrastructure.clock()), history(jdbi, campaigns)));
  }
}
