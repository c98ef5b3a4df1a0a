package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.Connection;
import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Running consumers of one queue: a {@link LaneConsumer} each, handlers on virtual threads under the
 * queue's time limit, then settlement: whatever a disposition needs published (a retry, a dead letter)
 * is published and confirmed first, then the messages are acked together; if that publish fails, they
 * go back to their queue instead.
 */
final class RabbitSubscription implements Subscription {
  private static final Logger log = LoggerFactory.getLogger(RabbitSubscription.class);

  /** What the consumers hand their messages to: one at a time or in batches. */
  sealed interface Work {
    record One(MessageHandler handler) implements Work {}

    record Batch(BatchHandler handler) implements Work {}
  }

  /** What settling needs from the queue: the spec a message goes by, and confirmed publishing. */
  interface Queue {
    QueueSpec specOf(Inbound inbound);

    void publish(List<ConfirmingPublisher.Outgoing> messages);

    /** {@code inbound} is handed to a handler now. */
    void handedOut(Inbound inbound);
  }

  private final RabbitLayout layout;
  private final Work work;
  private final Queue queue;
  private final Settlement settlement;
  private final QueueCounters counters;
  private final TimeLimit timeLimit;
  private final Runnable onClose;
  private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
  private final List<LaneConsumer> consumers = new ArrayList<>();
  private volatile boolean abandoned;

  RabbitSubscription(
      Connection connection,
      RabbitLayout layout,
      int consumers,
      int lanePrefetch,
      int capacity,
      int oldestEvery,
      Duration refillWait,
      Work work,
      Queue queue,
      Settlement settlement,
      TimeLimit timeLimit,
      Runnable beforeReopen,
      Runnable onClose,
      QueueCounters counters)
      throws IOException {
    this.counters = counters;
    this.layout = layout;
    this.work = work;
    this.queue = queue;
    this.settlement = settlement;
    this.timeLimit = timeLimit;
    this.onClose = onClose;
    try {
      for (int i = 0; i < consumers; i++) {
        var consumer = new LaneConsumer(
            connection,
            layout,
            lanePrefetch,
            capacity,
            work instanceof Work.Batch,
            oldestEvery,
            refillWait,
            this::handOut,
            beforeReopen);
        this.consumers.add(consumer);
        consumer.start();
      }
    } catch (IOException | RuntimeException e) {
      this.consumers.forEach(LaneConsumer::close);
      throw e;
    }
  }

  private void handOut(LaneConsumer from, List<Inbound> taken) {
    try {
      switch (work) {
        case Work.One one -> {
          for (Inbound inbound : taken)
            handlers.execute(() -> handleOne(from, inbound, one.handler()));
        }
        case Work.Batch batch -> handlers.execute(() -> handleBatch(from, taken, batch.handler()));
      }
    } catch (RejectedExecutionException closing) {
      // Taken as the subscription closed: back to the queue unhandled.
      from.settle(List.of(), taken);
    }
  }

  private void handleOne(LaneConsumer from, Inbound inbound, MessageHandler handler) {
    QueueSpec spec = queue.specOf(inbound);
    if (inbound.redelivered()) {
      settle(
          from,
          List.of(inbound),
          List.of(Optional.of(settlement.afterLostDelivery(spec, layout, inbound))),
          List.of(lost(spec, inbound)));
      return;
    }
    Delivery delivery = Settlement.delivery(inbound);
    counters.delivered(layout.queue(), delivery);
    queue.handedOut(inbound);
    Disposition disposition;
    try {
      disposition = timeLimit.run(spec.handlerTimeout(), () -> handler.handle(delivery));
    } catch (TimeLimit.Exceeded e) {
      disposition = Disposition.retry(e.reason());
    } catch (Exception | Error e) {
      // An Error fails the delivery too: unsettled, the message would stay unacked and its consumer
      // stalled until the broker's consumer_timeout.
      disposition = Disposition.retry("handler failed: " + e);
    }
    if (abandoned) return;
    settle(
        from,
        List.of(inbound),
        List.of(settlement.after(spec, layout, inbound, disposition)),
        List.of(settled(spec, delivery, disposition)));
  }

  /** Counts a lost delivery once it is settled: a dead letter when it was the last one allowed. */
  private Runnable lost(QueueSpec spec, Inbound inbound) {
    int deliveries = Settlement.delivery(inbound).deliveryCount();
    return deliveries >= spec.maxDeliveries()
        ? () -> counters.deadLettered(layout.queue(), QueueCounters.DeadReason.consumer_lost)
        : () -> {};
  }

  private Runnable settled(QueueSpec spec, Delivery delivery, Disposition disposition) {
    return () -> counters.settled(
        layout.queue(), disposition, delivery.deliveryCount(), spec.maxDeliveries());
  }

  private void handleBatch(LaneConsumer from, List<Inbound> taken, BatchHandler handler) {
    var settled = new ArrayList<Inbound>(taken.size());
    var outgoing = new ArrayList<Optional<ConfirmingPublisher.Outgoing>>(taken.size());
    var fresh = new ArrayList<Inbound>(taken.size());
    var counted = new ArrayList<Runnable>(taken.size());
    for (Inbound inbound : taken) {
      if (inbound.redelivered()) {
        settled.add(inbound);
        outgoing.add(
            Optional.of(settlement.afterLostDelivery(queue.specOf(inbound), layout, inbound)));
        counted.add(lost(queue.specOf(inbound), inbound));
      } else {
        fresh.add(inbound);
      }
    }
    if (!fresh.isEmpty()) {
      List<Delivery> deliveries = fresh.stream().map(Settlement::delivery).toList();
      for (Delivery delivery : deliveries) counters.delivered(layout.queue(), delivery);
      fresh.forEach(queue::handedOut);
      Function<Delivery, Disposition> dispositions;
      try {
        BatchResult result = timeLimit.run(
            queue.specOf(fresh.getFirst()).handlerTimeout(), () -> handler.handle(deliveries));
        dispositions = result::dispositionOf;
      } catch (TimeLimit.Exceeded e) {
        dispositions = delivery -> Disposition.retry(e.reason());
      } catch (Exception | Error e) {
        // An Error fails the batch too: unsettled, its messages would stay unacked and its consumer
        // stalled until the broker's consumer_timeout.
        dispositions = delivery -> Disposition.retry("batch handler failed: " + e);
      }
      if (abandoned) return;
      for (int i = 0; i < fresh.size(); i++) {
        Inbound inbound = fresh.get(i);
        settled.add(inbound);
        QueueSpec spec = queue.specOf(inbound);
        Disposition disposition = dispositions.apply(deliveries.get(i));
        outgoing.add(settlement.after(spec, layout, inbound, disposition));
        counted.add(settled(spec, deliveries.get(i), disposition));
      }
    }
    settle(from, settled, outgoing, counted);
  }

  /** Publishes what must be published (one confirm round), then acks; on failure those go back to their queue. */
  private void settle(
      LaneConsumer from,
      List<Inbound> inbound,
      List<Optional<ConfirmingPublisher.Outgoing>> outgoing,
      List<Runnable> counted) {
    var toPublish = new ArrayList<ConfirmingPublisher.Outgoing>();
    outgoing.forEach(message -> message.ifPresent(toPublish::add));
    if (toPublish.isEmpty()) {
      from.settle(inbound, List.of());
      counted.forEach(Runnable::run);
      return;
    }
    try {
      queue.publish(toPublish);
      from.settle(inbound, List.of());
      counted.forEach(Runnable::run);
    } catch (RuntimeException e) {
      log.warn(
          "cannot settle {} message(s) of queue '{}'; returning them to the queue: {}",
          toPublish.size(),
          layout.queue(),
          e.toString());
      var acked = new ArrayList<Inbound>();
      var requeued = new ArrayList<Inbound>();
      for (int i = 0; i < inbound.size(); i++)
        (outgoing.get(i).isPresent() ? requeued : acked).add(inbound.get(i));
      from.settle(acked, requeued);
    }
  }

  @Override
  public void close() {
    consumers.forEach(LaneConsumer::stop);
    handlers.close(); // waits for handlers in progress, which settle and ack
    for (LaneConsumer consumer : consumers) {
      List<Inbound> leftovers = consumer.leftovers();
      if (leftovers.isEmpty()) continue;
      // Received but never handled: back to their lane as they were, so that closing does not count
      // a delivery against them (a requeue would mark them redelivered).
      settle(
          consumer,
          leftovers,
          leftovers.stream()
              .map(inbound -> Optional.of(Settlement.putBack(layout, inbound)))
              .toList(),
          List.of());
    }
    consumers.forEach(LaneConsumer::close);
    onClose.run();
  }

  /** Test hook for a killed process: nothing in progress is settled; the connection's end requeues it. */
  void abandon() {
    abandoned = true;
    consumers.forEach(LaneConsumer::halt);
    handlers.shutdown();
    onClose.run();
  }

  /** Test hook, see {@link LaneConsumer#provokeChannelError()}. */
  void provokeChannelErrors() throws IOException {
    for (LaneConsumer consumer : consumers) consumer.provokeChannelError();
  }
}
