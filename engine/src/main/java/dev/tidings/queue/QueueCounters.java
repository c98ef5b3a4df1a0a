package dev.tidings.queue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
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
 */
public final class QueueCounters {
  public static final String DELIVERIES = "tidings_queue_deliveries";
  public static final String RETRIES = "tidings_queue_retries";
  public static final String DEAD_LETTERS = "tidings_queue_dead_letters";

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

    OfQueue(MeterRegistry registry, String queue) {
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
