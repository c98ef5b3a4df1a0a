package dev.tidings.app;

import dev.tidings.events.CloudEvent;
import dev.tidings.events.EventConsumers;
import dev.tidings.events.EventExpiry;
import dev.tidings.events.EventListener;
import dev.tidings.events.EventLog;
import dev.tidings.events.EventRelay;
import dev.tidings.events.EventRoutes;
import dev.tidings.events.EventStream;
import dev.tidings.events.EventStreamFeeder;
import dev.tidings.events.rabbitmq.RabbitEventStream;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.retention.Expiring;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.events.EventsRoutes;
import java.net.URI;
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
  private BackgroundJobs.@Nullable Running feeder;
  private @Nullable RabbitEventStream stream;

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
          infrastructure.settings().amqpUrl().ifPresent(this::startFeeder);
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

  /**
   * With RabbitMQ configured, the log is also a RabbitMQ stream a shop's systems read from any offset;
   * connected on the feeder's first round, so a RabbitMQ that is away delays the stream, not the node.
   */
  private void startFeeder(URI amqpUrl) {
    var retention = infrastructure.settings().retention().eventLog();
    EventStream lazy = new EventStream() {
      private EventStream connected() {
        synchronized (EventsWiring.this) {
          if (stream == null) stream = RabbitEventStream.connect(amqpUrl, retention);
          return stream;
        }
      }

      @Override
      public long lastPosition() {
        return connected().lastPosition();
      }

      @Override
      public void append(List<CloudEvent> events) {
        connected().append(events);
      }

      @Override
      public String name() {
        return RabbitEventStream.STREAM;
      }

      @Override
      public String describe() {
        return connected().describe();
      }

      @Override
      public void close() {}
    };
    feeder = infrastructure
        .jobs()
        .start(new EventStreamFeeder(
                infrastructure.database().jdbi(), log.get(), lazy, infrastructure.metrics())
            .job());
  }

  @Override
  public synchronized void close() {
    if (relay != null) relay.close();
    if (feeder != null) feeder.close();
    if (stream != null) stream.close();
  }
}
