package dev.tidings.app;

import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.Aggregation;
import dev.tidings.activity.aggregate.AggregationDefinitions;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.activity.ActivityRoutes;
import dev.tidings.web.aggregate.AggregateRoutes;
import java.util.List;

/** Activity events in, on the node's database. */
public final class ActivityWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<ActivityIntake> intake;

  ActivityWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.intake = Lazy.of(() -> intakeOn(infrastructure));
  }

  /** The intake that counts what it stores into the aggregates; every way in uses one like it. */
  static ActivityIntake intakeOn(Infrastructure infrastructure) {
    var jdbi = infrastructure.database().jdbi();
    return new ActivityIntake(
        jdbi,
        infrastructure.clock(),
        ActivityIntake.DEFAULT_BATCH_EVENTS,
        new Aggregation(
            new AggregationDefinitions(jdbi, AggregationDefinitions.DEFAULT_REFRESH),
            new AggregateStore(jdbi)));
  }

  public ActivityIntake intake() {
    return intake.get();
  }

  @Override
  public List<RouteGroup> routes() {
    var settings = infrastructure.settings();
    return List.of(
        new ActivityRoutes(intake(), settings.maxBodyBytes(), settings.maxImportBytes()),
        new AggregateRoutes(new AggregateStore(infrastructure.database().jdbi())));
  }
}
