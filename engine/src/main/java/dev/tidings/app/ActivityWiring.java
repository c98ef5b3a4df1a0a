package dev.tidings.app;

import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventExpiry;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.AggregationDefinitions;
import dev.tidings.activity.aggregate.AggregationRunner;
import dev.tidings.activity.aggregate.BacklogAggregation;
import dev.tidings.activity.aggregate.BacklogGauges;
import dev.tidings.retention.Expiring;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.Uploads;
import dev.tidings.web.activity.ActivityRoutes;
import dev.tidings.web.aggregate.AggregateRoutes;
import java.time.Duration;
import java.util.List;

/**
 * Activity events in, on the node's database, and counted into the aggregates in the background by
 * every started node.
 */
public final class ActivityWiring implements Capability {
  /**
   * How long a day's aggregates live after the day ended: the longest window the recommenders read by
   * day (trending, recently viewed) with room to spare; months, years and all time are kept for good.
   */
  static final Duration DAY_AGGREGATES_KEPT = Duration.ofDays(120);

  private final Infrastructure infrastructure;
  private final Lazy<ActivityIntake> intake;
  private final Lazy<AggregateStore> aggregates;
  private final Lazy<AggregationDefinitions> definitions;
  private final Lazy<BacklogAggregation> aggregation;

  ActivityWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.intake =
        Lazy.of(() -> new ActivityIntake(infrastructure.database().jdbi(), infrastructure.clock()));
    this.aggregates = Lazy.of(() -> new AggregateStore(infrastructure.database().jdbi()));
    this.definitions = Lazy.of(() -> new AggregationDefinitions(
        infrastructure.database().jdbi(), AggregationDefinitions.DEFAULT_REFRESH));
    this.aggregation = Lazy.of(() -> new BacklogAggregation(
        infrastructure.database().jdbi(),
        definitions.get(),
        aggregates.get(),
        infrastructure.metrics()));
  }

  public ActivityIntake intake() {
    return intake.get();
  }

  public AggregateStore aggregates() {
    return aggregates.get();
  }

  public BacklogAggregation aggregation() {
    return aggregation.get();
  }

  @Override
  public List<Expiring> expiring() {
    return List.of(
        new Expiring(
            EventExpiry.of(infrastructure.database().jdbi()),
            infrastructure.settings().retention().events()),
        new Expiring(aggregates().dayExpiry(), DAY_AGGREGATES_KEPT));
  }

  @Override
  public List<RouteGroup> routes() {
    var settings = infrastructure.settings();
    return List.of(
        new ActivityRoutes(
            intake(),
            settings.maxBodyBytes(),
            Uploads.underDataDirectory(settings.dataDir(), settings.maxImportBytes())),
        new AggregateRoutes(aggregates(), definitions.get()));
  }

  @Override
  public List<Background> background() {
    return List.of(() -> {
      BacklogGauges.register(infrastructure.metrics(), aggregation(), infrastructure.clock());
      return AggregationRunner.start(aggregation(), AggregationRunner.Options.defaults());
    });
  }
}
