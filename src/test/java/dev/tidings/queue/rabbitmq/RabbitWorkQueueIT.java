package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.WorkQueueContract;
import dev.tidings.testing.RealServers;
import java.time.Duration;
import java.time.InstantSource;
import org.junit.jupiter.api.BeforeAll;

/** The work-queue contract on the machine's RabbitMQ (failsafe). Queues are deleted after each test. */
class RabbitWorkQueueIT extends WorkQueueContract {
  private static final RabbitQueueOptions SMALL_WINDOW =
      new RabbitQueueOptions(2, 4, Duration.ofSeconds(15));

  @BeforeAll
  static void requireBroker() {
    RealServers.requireRabbitMq();
  }

  @Override
  protected WorkQueue openQueue() {
    return RabbitWorkQueue.connect(RealServers.amqpUrl(), SMALL_WINDOW, InstantSource.system());
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

  @Override
  protected int publishBufferBound() {
    return SMALL_WINDOW.publishChannels() * SMALL_WINDOW.maxUnconfirmedPerChannel();
  }

  @Override
  protected void deleteQueue(String name) {
    var factory = new ConnectionFactory();
    try {
      factory.setUri(RealServers.amqpUrl());
      try (Connection connection = factory.newConnection("tidings-test-cleanup")) {
        for (String queue : new String[] {name, name + ".dead"}) {
          try (Channel channel = connection.createChannel()) {
            channel.queueDelete(queue);
          }
        }
      }
    } catch (Exception e) {
      System.err.println("could not delete test queue " + name + ": " + e);
    }
  }
}
