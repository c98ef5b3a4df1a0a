package dev.tidings.cli;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.net.URI;

/** Deletes a queue a benchmark declared on RabbitMQ, where queues outlive the run (the port has no delete). */
final class RabbitQueues {
  private RabbitQueues() {}

  static void delete(URI amqpUrl, String queue) {
    var factory = new ConnectionFactory();
    try {
      factory.setUri(amqpUrl);
      try (Connection connection = factory.newConnection("tidings-bench-cleanup")) {
        for (String name : new String[] {queue, queue + ".dead"}) {
          try (Channel channel = connection.createChannel()) {
            channel.queueDelete(name);
          }
        }
      }
    } catch (Exception e) {
      System.err.println("could not delete benchmark queue " + queue + ": " + e);
    }
  }
}
