package dev.tidings.app;

import dev.tidings.events.EventConsumers;
import dev.tidings.events.EventExpiry;
import dev.tidings.events.EventListener;
import dev.tidings.events.EventLog;
import dev.tidings.events.EventRelay;
import dev.tidings.events.EventRoutes;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.retention.Expiring;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.events.EventsRoutes;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Events: the relay from the outbox to the log and the listeners' queues, run by every node that
 * consumes; the listeners each capability registers, consumed there; and the log a shop's systems read
 * from any offset.
 */
public final class EventsWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<EventRoutes> routes;
  private final Lazy<EventLog> log;
  private BackgroundJobs.@Nullable Running relay;

  EventsWiring(Infrastructure infrastructure, Supplier<List<EventListener>> listeners) {
    this.infrastructure = infrastructure;
    this.routes = Lazy.of(() -> new EventRoutes(listeners.get()));
    this.log = Lazy.of(() -> new EventLog(infrastructure.database().jdbi()));
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new EventsRoutes(log.get()));
  }

  EventRelay relay() {
    return new EventRelay(
        infrastructure.database().jdbi(),
        infrastructure.workQueue(),
        routes.get(),
        infrastructure.clock(),
        infrastructure.metrics());
  }

  @Override
  public List<ConsumerGroup> consumers() {
    return List.of(consumers -> {
      synchronized (this) {
        if (relay == null) {
          EventRelay relaying = relay();
          relaying.declareQueues();
          relay = infrastructure.jobs().start(relaying.job());
        }
      }
      new EventConsumers(routes.get(), infrastructure.workQueue(), infrastructure.metrics())
          .register(consumers);
    });
  }

  @Override
  public List<Expiring> expiring() {
    var retention = infrastructure.settings().retention();
    var jdbi = infrastructure.database().jdbi();
    return List.of(
        new Expiring(EventExpiry.log(jdbi), retention.eventLog()),
        // a dead letter replayed within its lifetime must still find its events marked
        new Expiring(EventExpiry.inbox(jdbi), retention.deadLetters().plus(Duration.ofDays(1))));
  }

  @Override
  public synchronized void close() {
    if (relay != null) relay.close();
  }
}
