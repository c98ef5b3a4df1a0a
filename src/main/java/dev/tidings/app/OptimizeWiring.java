package dev.tidings.app;

import dev.tidings.campaign.CampaignService;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.optimize.ItemConfigurations;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.optimize.ExperimentRoutes;
import dev.tidings.web.optimize.OptimizeRoutes;
import java.util.List;
import java.util.function.Supplier;

/**
 * The conversion optimiser on the node's database: item configurations, their counts, the day's changes;
 * and campaigns' experiments.
 */
public final class OptimizeWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<ItemConfigurations> configurations;
  private final Lazy<CampaignExperiments> experiments;

  private final Supplier<CampaignService> campaigns;

  /** {@code campaigns}: whose experiments the experiment routes report and roll out. */
  OptimizeWiring(Infrastructure infrastructure, Supplier<CampaignService> campaigns) {
    this.infrastructure = infrastructure;
    this.campaigns = campaigns;
    this.configurations = Lazy.of(
        () -> new ItemConfigurations(infrastructure.database().jdbi(), infrastructure.clock()));
    this.experiments = Lazy.of(
        () -> new CampaignExperiments(infrastructure.database().jdbi(), infrastructure.clock()));
  }

  /** Campaign experiments: what each variant was sent to and how it converts. */
  public CampaignExperiments experiments() {
    return experiments.get();
  }

  /** The experiments as campaigns record and read them. */
  public OptimizeExperiments ledger() {
    return new OptimizeExperiments(experiments());
  }

  public ItemConfigurations configurations() {
    return configurations.get();
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(
        new OptimizeRoutes(configurations(), infrastructure.settings().maxBodyBytes()),
        new ExperimentRoutes(campaigns.get(), experiments(), OptimizeExperiments::plan));
  }
}
