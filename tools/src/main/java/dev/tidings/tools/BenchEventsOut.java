package dev.tidings.tools;

import dev.tidings.audience.SuppressionListener;
import dev.tidings.events.EventConsumers;
import dev.tidings.events.EventListener;
import dev.tidings.events.EventRelay;
import dev.tidings.events.EventRoutes;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.optimize.ExperimentStepsListener;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Subscribing;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import dev.tidings.sendtime.OpenHoursListener;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Events out as a worker node runs them, for benchmarks of the paths that tell events: the relay
 * (every 100 ms) and the listeners that hear the funnel (suppressions, experiment counts, open hours),
 * each on its own queue in the same database, plus any further listeners a benchmark brings.
 */
public final class BenchEventsOut implements AutoCloseable {
  private final WorkQueue queue;
  private final BackgroundJobs jobs;
  private final List<Subscription> subscriptions;

  private BenchEventsOut(WorkQueue queue, BackgroundJobs jobs, List<Subscription> subscriptions) {
    this.queue = queue;
    this.jobs = jobs;
    this.subscriptions = subscriptions;
  }

  /** The funnel's listeners as a node registers them. */
  public static List<EventListener> funnelListeners(Database database) {
    var jdbi = database.jdbi();
    return List.of(
        new SuppressionListener(jdbi, InstantSource.system()),
        new ExperimentStepsListener(jdbi),
        new OpenHoursListener(jdbi));
  }

  public static BenchEventsOut start(Database database, List<EventListener> listeners) {
    return start(database, queue -> listeners, queue -> List.of());
  }

  /**
   * The relay and {@code listeners}, with the consumers of {@code more} (a webhook sender), all on one
   * work queue in {@code database} that each is given.
   */
  public static BenchEventsOut start(
      Database database,
      Function<WorkQueue, List<EventListener>> listeners,
      Function<WorkQueue, List<ConsumerGroup>> more) {
    var metrics = new SimpleMeterRegistry();
    WorkQueue queue = ThrowawayQueues.queueTables(database);
    var routes = new EventRoutes(listeners.apply(queue));
    var relay = new EventRelay(database.jdbi(), queue, routes, InstantSource.system(), metrics);
    relay.declareQueues();
    List<Subscription> subscriptions = new ArrayList<>();
    var consumers = new Subscribing(queue, subscriptions);
    new EventConsumers(routes, queue, metrics).register(consumers);
    more.apply(queue).forEach(group -> group.register(consumers));
    var jobs = new BackgroundJobs(metrics, InstantSource.system());
    jobs.start(relay.job());
    return new BenchEventsOut(queue, jobs, subscriptions);
  }

  @Override
  public void close() {
    jobs.close();
    for (Subscription subscription : subscriptions) {
      try {
        subscription.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    try {
      queue.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
