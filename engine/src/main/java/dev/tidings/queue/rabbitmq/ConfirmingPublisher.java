package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Connection;
import dev.tidings.queue.QueueUnavailableException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** Publishes over a small pool of confirm-mode channels and returns only once the broker confirmed. */
final class ConfirmingPublisher {
  /** One message to send: where (an exchange and a routing key), how, what. */
  @SuppressWarnings("ArrayRecordComponent") // the body as given, not copied or compared
  record Outgoing(
      String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {
    /** Straight into {@code queue}, through the default exchange. */
    Outgoing(String queue, AMQP.BasicProperties properties, byte[] body) {
      this("", queue, properties, body);
    }
  }

  private final List<ConfirmChannel> channels = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private final RabbitQueueOptions options;

  ConfirmingPublisher(Connection connection, RabbitQueueOptions options) throws IOException {
    this.options = options;
    for (int i = 0; i < options.publishChannels(); i++)
      channels.add(new ConfirmChannel(connection, options.maxUnconfirmedPerChannel()));
  }

  /** Sends every message on one channel, so the broker receives them in list order, then awaits all confirms. */
  void publish(List<Outgoing> messages) {
    var confirms = new ArrayList<CompletableFuture<Void>>(messages.size());
    ConfirmChannel channel = channel();
    for (Outgoing message : messages) {
      confirms.add(channel.publish(
          message.exchange(),
          message.routingKey(),
          message.properties(),
          message.body(),
          options.confirmTimeout()));
    }
    try {
      CompletableFuture.allOf(confirms.toArray(CompletableFuture[]::new))
          .get(options.confirmTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw cause instanceof QueueUnavailableException unavailable
          ? unavailable
          : new QueueUnavailableException("publish not confirmed: " + cause, cause);
    } catch (TimeoutException e) {
      throw new QueueUnavailableException(
          "RabbitMQ did not confirm " + messages.size() + " publish(es) within "
              + options.confirmTimeout(),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueUnavailableException("interrupted waiting for publish confirms", e);
    }
  }

  private ConfirmChannel channel() {
    return channels.get(Math.floorMod(next.getAndIncrement(), channels.size()));
  }

  /** Test hook, see {@link ConfirmChannel#pauseConfirms()}. */
  void pauseConfirms() {
    channels.forEach(ConfirmChannel::pauseConfirms);
  }

  void resumeConfirms() {
    channels.forEach(ConfirmChannel::resumeConfirms);
  }

  int capacity() {
    return options.publishChannels() * options.maxUnconfirmedPerChannel();
  }
}
