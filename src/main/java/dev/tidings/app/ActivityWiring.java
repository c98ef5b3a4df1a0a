package dev.tidings.app;

import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.aggregate.AggregateStore;
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
    // Counting into the aggregates in the intake's transaction (activity.aggregate.Aggregation) is
    // not wired in yet: it cost the intake 4x (docs/benchmarks.md, event intake).
    this.intake =
        Lazy.of(() -> new ActivityIntake(infrastructure.database().jdbi(), infrastructure.clock()));
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
