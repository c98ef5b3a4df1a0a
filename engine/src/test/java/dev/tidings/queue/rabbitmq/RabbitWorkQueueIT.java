package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.WorkQueueContract;
import dev.tidings.testing.RealServers;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;

/** The work-queue contract on the machine's RabbitMQ (failsafe). Queues are deleted after each test. */
class RabbitWorkQueueIT extends WorkQueueContract {
  private static final RabbitQueueOptions SMALL_WINDOW =
      new RabbitQueueOptions(2, 4, Duration.ofSeconds(15));

  @BeforeAll
  static void requireBroker() {
    RealServers.requireRabbitMq();
  }

  private final List<RabbitWorkQueue> opened = new ArrayList<>();

  @Override
  protected WorkQueue openQueue() {
    var queue = RabbitWorkQueue.connect(
        RealServers.amqpUrl(), SMALL_WINDOW, InstantSource.system(), metrics);
    opened.add(queue);
    return queue;
  }

  @Override
  protected void crash(WorkQueue queue) {
    ((RabbitWorkQueue) queue).abandon();
  }

  @Override
  protected AutoCloseable stallPublishing(WorkQueue queue) {
    var rabbit = (RabbitWorkQueue) queue;
    rabbit.pauseConfirms();
    return rabbit::resumeConfirms;
  }

  /** Delays are rounded up to whole seconds: measured 3 ms to 1.02 s on an idle consumer. */
  @Override
  protected Duration lateAtMost() {
    return Duration.ofSeconds(2);
  }

  @Override
  protected int publishBufferBound() {
    return SMALL_WINDOW.publishChannels() * SMALL_WINDOW.maxUnconfirmedPerChannel();
  }

  @Override
  protected void deleteQueue(String name) {
    Set<String> queues = new LinkedHashSet<>();
    opened.forEach(queue -> queues.addAll(queue.declaredQueues(name)));
    opened.clear();
    deleteAll(name, queues);
  }

  /** Deletes {@code queues} and the requeue exchange of {@code name}, straight on the broker. */
  static void deleteAll(String name, Set<String> queues) {
    var factory = new ConnectionFactory();
    try {
      factory.setUri(RealServers.amqpUrl());
      try (Connection connection = factory.newConnection("tidings-test-cleanup")) {
        for (String queue : queues) {
          try (Channel channel = connection.createChannel()) {
            channel.queueDelete(queue);
          }
        }
        try (Channel channel = connection.createChannel()) {
          channel.exchangeDelete(name + ".requeue");
        }
      }
    } catch (Exception e) {
      System.err.println("could not delete test queue " + name + ": " + e);
    }
  }
}
