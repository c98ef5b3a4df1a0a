package dev.tidings.app;

import dev.tidings.events.EventLog;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.events.EventsRoutes;
import java.util.List;

/**
 * Events on the node's database: the log a shop's systems read from any offset. (The relay and the
 * listeners' consumers join here.)
 */
public final class EventsWiring implements Capability {
  private final Lazy<EventLog> log;

  EventsWiring(Infrastructure infrastructure) {
    this.log = Lazy.of(() -> new EventLog(infrastructure.database().jdbi()));
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new EventsRoutes(log.get()));
  }
}
