package dev.tidings.events.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.tidings.events.CloudEvent;
import dev.tidings.events.EventStream;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.rabbitmq.AmqpAddresses;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The event log as a RabbitMQ stream ({@code x-queue-type: stream}): each event one message, its
 * CloudEvents JSON as the body ({@code application/cloudevents+json}), its id as the message id and its
 * position in the header {@code position}. A shop's consumer reads it from any offset
 * ({@code x-stream-offset}: {@code first}, a number, a timestamp) as often as it likes; the stream keeps
 * its newest 20 GB, in 100 MB segments, and at most as long as the log keeps events.
 */
public final class RabbitEventStream implements EventStream {
  public static final String STREAM = "tidings.events";
  private static final Duration CONFIRM_WAIT = Duration.ofSeconds(15);
  private static final Duration FIRST_WAIT = Duration.ofMillis(500);
  private static final Duration CHUNK_SILENCE = Duration.ofMillis(100);

  private final ConnectionFactory factory;
  private final AmqpAddresses addresses;
  private final String stream;
  private final Map<String, Object> arguments;
  private @Nullable Connection connection;
  private @Nullable Channel channel;

  private RabbitEventStream(
      ConnectionFactory factory,
      AmqpAddresses addresses,
      String stream,
      Map<String, Object> arguments) {
    this.factory = factory;
    this.addresses = addresses;
    this.stream = stream;
    this.arguments = arguments;
  }

  /** The stream on the RabbitMQ at {@code amqpUrl}, keeping events at most {@code maxAge}. */
  public static RabbitEventStream connect(URI amqpUrl, Duration maxAge) {
    return connect(amqpUrl, maxAge, STREAM);
  }

  /** As {@link #connect(URI, Duration)}, to a stream of another name (tests of their own). */
  public static RabbitEventStream connect(URI amqpUrl, Duration maxAge, String stream) {
    AmqpAddresses addresses;
    try {
      addresses = AmqpAddresses.parse(amqpUrl);
    } catch (IllegalArgumentException e) {
      throw new QueueUnavailableException("not a RabbitMQ URL: " + e.getMessage(), e);
    }
    var factory = new ConnectionFactory();
    try {
      factory.setUri(addresses.firstNode());
    } catch (Exception e) {
      throw new QueueUnavailableException("not a RabbitMQ URL: " + e.getMessage(), e);
    }
    factory.setAutomaticRecoveryEnabled(false);
    factory.setConnectionTimeout(5_000);
    factory.setRequestedHeartbeat(15);
    var events = new RabbitEventStream(
        factory,
        addresses,
        stream,
        Map.of(
            "x-queue-type",
            "stream",
            "x-max-age",
            Math.max(1, maxAge.toHours()) + "h",
            "x-max-length-bytes",
            20_000_000_000L,
            "x-stream-max-segment-size-bytes",
            100_000_000));
    events.channel();
    return events;
  }

  @Override
  public String name() {
    return stream;
  }

  @Override
  public String describe() {
    return "RabbitMQ stream " + stream + " at " + addresses.describe();
  }

  /** The open channel, in confirm mode, with the stream declared; reopened after a failure. */
  private synchronized Channel channel() {
    if (channel != null && channel.isOpen()) return channel;
    close();
    try {
      connection = factory.newConnection(
          addresses.nodes(),
          "tidings-event-stream-" + UUID.randomUUID().toString().substring(0, 8));
      Channel opened = connection.createChannel();
      opened.confirmSelect();
      opened.queueDeclare(stream, true, false, false, arguments);
      channel = opened;
      return opened;
    } catch (IOException | TimeoutException e) {
      close();
      throw new QueueUnavailableException("cannot open " + describe() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized void append(List<CloudEvent> events) {
    if (events.isEmpty()) return;
    Channel open = channel();
    try {
      for (CloudEvent event : events) {
        var properties = new AMQP.BasicProperties.Builder()
            .contentType(CloudEvent.CONTENT_TYPE)
            .deliveryMode(2)
            .messageId(event.id())
            .type(event.type().typeName())
            .headers(Map.of("position", event.position()))
            .build();
        open.basicPublish(
            "", stream, properties, event.json().toString().getBytes(StandardCharsets.UTF_8));
      }
      open.waitForConfirmsOrDie(CONFIRM_WAIT.toMillis());
    } catch (IOException | TimeoutException | RuntimeException e) {
      close();
      throw new QueueUnavailableException(
          describe() + " did not confirm " + events.size() + " events: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new QueueUnavailableException("interrupted appending to " + describe(), e);
    }
  }

  /**
   * Reads the stream's last chunk (offset {@code last}) on a channel of its own and answers the
   * highest position in it; 0 when the stream is empty.
   */
  @Override
  public long lastPosition() {
    channel();
    Connection open = connection;
    if (open == null) throw new QueueUnavailableException(describe() + " is not connected");
    try (Channel reading = open.createChannel()) {
      var arrived = new LinkedBlockingQueue<Long>();
      reading.basicQos(1_000);
      String tag = reading.basicConsume(
          stream, false, Map.of("x-stream-offset", "last"), new DefaultConsumer(reading) {
            @Override
            public void handleDelivery(
                String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                throws IOException {
              Object position = properties.getHeaders() == null
                  ? null
                  : properties.getHeaders().get("position");
              if (position instanceof Number number) arrived.add(number.longValue());
              getChannel().basicAck(envelope.getDeliveryTag(), false);
            }
          });
      long last = 0;
      Long next = arrived.poll(FIRST_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      while (next != null) {
        last = Math.max(last, next);
        next = arrived.poll(CHUNK_SILENCE.toMillis(), TimeUnit.MILLISECONDS);
      }
      reading.basicCancel(tag);
      return last;
    } catch (IOException | TimeoutException e) {
      throw new QueueUnavailableException("cannot read " + describe() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueUnavailableException("interrupted reading " + describe(), e);
    }
  }

  @Override
  public synchronized void close() {
    Connection open = connection;
    connection = null;
    channel = null;
    if (open == null) return;
    try {
      open.abort(1_000);
    } catch (RuntimeException e) {
      // closing a broken connection: nothing left to release
    }
  }
}
