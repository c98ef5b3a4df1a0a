package dev.tidings.app;

import dev.tidings.journeys.JourneyStore;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.journeys.JourneyRoutes;
import java.util.List;

/** Journeys: their definitions and versions through the API. */
public final class JourneysWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<JourneyStore> store;

  JourneysWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.store =
        Lazy.of(() -> new JourneyStore(infrastructure.database().jdbi(), infrastructure.clock()));
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new JourneyRoutes(store.get(), infrastructure.settings().maxBodyBytes()));
  }
}
