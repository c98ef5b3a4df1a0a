package dev.tidings.queue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the queue adapters count, per queue, for Prometheus: {@code tidings_queue_deliveries_total{queue,
 * kind}} (a message's {@code first} delivery or a {@code redelivery}: its consumer died, or it was
 * retried), {@code tidings_queue_retries_total{queue}} (handed back to be tried again after the queue's
 * backoff) and {@code tidings_queue_dead_letters_total{queue, reason_class}}, each dead letter counted
 * once when it is settled: {@code rejected} by its handler (a poison message its batch consumer
 * isolated included), {@code exhausted} its deliveries, or its {@code consumer_lost} on the last
 * delivery it was allowed. The adapters call this only for settlements the queue accepted.
 *
 * <p>Delayed messages: {@code tidings_queue_delayed_published_total{queue}} counts those published with
 * a not-before ahead, once the queue confirmed them, and {@code
 * tidings_queue_delayed_lateness_seconds{queue}} (a histogram) how long after its not-before each was
 * first handed to a handler.
 */
public final class QueueCounters {
  public static final String DELIVERIES = "tidings_queue_deliveries";
  public static final String RETRIES = "tidings_queue_retries";
  public static final String DEAD_LETTERS = "tidings_queue_dead_letters";
  public static final String DELAYED_PUBLISHED = "tidings_queue_delayed_published";
  public static final String DELAYED_LATENESS = "tidings_queue_delayed_lateness";

  /**
   * Buckets of the lateness histogram: a second and below is the adapters' own granularity; minutes
   * mean the consumers do not keep up.
   */
  private static final Duration[] LATENESS_BUCKETS = {
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofSeconds(2),
    Duration.ofSeconds(5),
    Duration.ofSeconds(15),
    Duration.ofSeconds(60),
    Duration.ofMinutes(5),
    Duration.ofMinutes(15),
    Duration.ofHours(1)
  };

  /** Why a message became a dead letter. */
  public enum DeadReason {
    rejected,
    exhausted,
    consumer_lost
  }

  private final MeterRegistry registry;
  private final Map<String, OfQueue> queues = new ConcurrentHashMap<>();

  public QueueCounters(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Counts one delivery handed to a handler. */
  public void delivered(String queue, Delivery delivery) {
    var counters = of(queue);
    (delivery.redelivered() ? counters.redeliveries : counters.firstDeliveries).increment();
  }

  /**
   * Counts what the queue made of {@code disposition} for a message on its {@code deliveries}-th
   * delivery, under a limit of {@code maxDeliveries}: the same rule both adapters settle by.
   */
  public void settled(String queue, Disposition disposition, int deliveries, int maxDeliveries) {
    switch (disposition) {
      case Disposition.Ack ack -> {}
      case Disposition.Reject reject -> deadLettered(queue, DeadReason.rejected);
      case Disposition.Retry retry
      when deliveries >= maxDeliveries -> deadLettered(queue, DeadReason.exhausted);
      case Disposition.Retry retry -> retried(queue);
    }
  }

  /** Counts {@code count} delayed messages the queue confirmed. */
  public void publishedDelayed(String queue, int count) {
    if (count > 0) of(queue).delayedPublished.increment(count);
  }

  /**
   * Records that a delayed message was first handed to a handler {@code lateness} after its not-before
   * (negative values, from clocks that disagree, count as zero).
   */
  public void deliveredLate(String queue, Duration lateness) {
    of(queue).lateness.record(lateness.isNegative() ? Duration.ZERO : lateness);
  }

  public void retried(String queue) {
    of(queue).retries.increment();
  }

  public void deadLettered(String queue, DeadReason reason) {
    Objects.requireNonNull(of(queue).dead.get(reason)).increment();
  }

  private OfQueue of(String queue) {
    return queues.computeIfAbsent(queue, name -> new OfQueue(registry, name));
  }

  private static final class OfQueue {
    final Counter firstDeliveries;
    final Counter redeliveries;
    final Counter retries;
    final Map<DeadReason, Counter> dead;
    final Counter delayedPublished;
    final Timer lateness;

    OfQueue(MeterRegistry registry, String queue) {
      this.delayedPublished = Counter.builder(DELAYED_PUBLISHED)
          .description("Messages published with a not-before instant ahead")
          .tag("queue", queue)
          .register(registry);
      this.lateness = Timer.builder(DELAYED_LATENESS)
          .description("How long after its not-before a delayed message was first delivered")
          .tag("queue", queue)
          .serviceLevelObjectives(LATENESS_BUCKETS)
          .register(registry);
      this.firstDeliveries = delivery(registry, queue, "first");
      this.redeliveries = delivery(registry, queue, "redelivery");
      this.retries = Counter.builder(RETRIES)
          .description("Messages handed back to be tried again after the queue's backoff")
          .tag("queue", queue)
          .register(registry);
      var byReason = new EnumMap<DeadReason, Counter>(DeadReason.class);
      for (DeadReason reason : DeadReason.values())
        byReason.put(
            reason,
            Counter.builder(DEAD_LETTERS)
                .description("Messages given up on and kept as dead letters, by why")
                .tag("queue", queue)
                .tag("reason_class", reason.name())
                .register(registry));
      this.dead = Map.copyOf(byReason);
    }

    private static Counter delivery(MeterRegistry registry, String queue, String kind) {
      return Counter.builder(DELIVERIES)
          .description("Messages handed to a consumer: first deliveries and redeliveries")
          .tag("queue", queue)
          .tag("kind", kind)
          .register(registry);
    }
  }
}
