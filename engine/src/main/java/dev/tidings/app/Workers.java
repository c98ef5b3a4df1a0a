package dev.tidings.app;

import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The running consumers of a node: every group's queues declared and subscribed; closed newest first. */
final class Workers implements AutoCloseable, ConsumerGroup.Consumers {
  private static final Logger log = LoggerFactory.getLogger(Workers.class);
  private final WorkQueue queue;
  private final Deque<Subscription> subscriptions = new ArrayDeque<>();
  private final List<String> queues = new ArrayList<>();

  private Workers(WorkQueue queue) {
    this.queue = queue;
  }

  static Workers start(WorkQueue queue, List<ConsumerGroup> groups) {
    var workers = new Workers(queue);
    try {
      groups.forEach(group -> group.register(workers));
    } catch (RuntimeException e) {
      workers.close();
      throw e;
    }
    return workers;
  }

  @Override
  public synchronized void consume(
      QueueSpec spec, int consumers, int prefetch, MessageHandler handler) {
    queue.declare(spec);
    subscriptions.push(queue.subscribe(spec.name(), consumers, prefetch, handler));
    queues.add(spec.name());
    log.info("consuming {} with {} consumers", spec.name(), consumers);
  }

  @Override
  public synchronized void consumeBatches(
      QueueSpec spec, int consumers, int batchSize, BatchHandler handler) {
    queue.declare(spec);
    subscriptions.push(queue.subscribeBatches(spec.name(), consumers, batchSize, handler));
    queues.add(spec.name());
    log.info(
        "consuming {} in batches of up to {} with {} consumers", spec.name(), batchSize, consumers);
  }

  /** The queues consumed, in the order they were registered. */
  synchronized List<String> queues() {
    return List.copyOf(queues);
  }

  @Override
  public synchronized void close() {
    while (!subscriptions.isEmpty()) {
      Subscription next = subscriptions.pop();
      try {
        next.close();
      } catch (RuntimeException e) {
        log.warn("stopping consumers failed", e);
      }
    }
  }
}
