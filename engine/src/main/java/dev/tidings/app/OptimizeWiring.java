package dev.tidings.app;

import dev.tidings.events.EventListener;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.optimize.ExperimentSendExpiry;
import dev.tidings.optimize.ExperimentStepsListener;
import dev.tidings.optimize.ItemConfigurations;
import dev.tidings.retention.Expiring;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.optimize.OptimizeRoutes;
import java.util.List;

/**
 * The conversion optimiser on the node's database: item configurations, their counts, the day's changes;
 * and campaigns' experiments (whose routes the campaigns serve, as they report and roll out
 * campaigns).
 */
public final class OptimizeWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<ItemConfigurations> configurations;
  private final Lazy<CampaignExperiments> experiments;

  OptimizeWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.configurations = Lazy.of(
        () -> new ItemConfigurations(infrastructure.database().jdbi(), infrastructure.clock()));
    this.experiments = Lazy.of(() -> new CampaignExperiments(
        infrastructure.database().jdbi(), infrastructure.clock(), infrastructure.metrics()));
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
  public List<Expiring> expiring() {
    return List.of(new Expiring(
        ExperimentSendExpiry.of(infrastructure.database().jdbi()),
        infrastructure.settings().retention().messages()));
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(
        new OptimizeRoutes(configurations(), infrastructure.settings().maxBodyBytes()));
  }

  @Override
  public List<EventListener> eventListeners() {
    return List.of(new ExperimentStepsListener(infrastructure.database().jdbi()));
  }
}
