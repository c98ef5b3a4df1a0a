package dev.tidings.app;

import dev.tidings.audience.AudienceService;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.audience.AudienceRoutes;
import java.util.List;

/** Subscribers, follows and suppressions on the node's database. */
public final class AudienceWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<AudienceService> audience;

  AudienceWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.audience = Lazy.of(
        () -> new AudienceService(infrastructure.database().jdbi(), infrastructure.clock()));
  }

  public AudienceService audience() {
    return audience.get();
  }

  @Override
  public List<RouteGroup> routes() {
    var settings = infrastructure.settings();
    return List.of(new AudienceRoutes(
        audience(), infrastructure.clock(), settings.maxBodyBytes(), settings.maxImportBytes()));
  }
}
