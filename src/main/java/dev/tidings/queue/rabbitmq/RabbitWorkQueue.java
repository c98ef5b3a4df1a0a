package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.ShutdownSignalException;
import com.rabbitmq.client.impl.recovery.RecordedQueue;
import com.rabbitmq.client.impl.recovery.TopologyRecoveryFilter;
import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.UnknownQueueException;
import dev.tidings.queue.WorkQueue;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Work queues on RabbitMQ (3.10 and later): durable classic queues with {@code x-max-priority},
 * persistent messages, publisher confirms, manual acks and automatic connection recovery. Owns its
 * connection.
 *
 * <p>Classic queues have no delivery limit, so Tidings counts deliveries itself: a retry republishes
 * the message (confirmed) with {@code x-tidings-deliveries} raised, then acks the original; a broker
 * redelivery after a dead consumer adds one. A message that dies repeatedly with its consumers is
 * therefore counted once per republish, not once per crash. Retries are immediate (no backoff).
 * Dead letters go to the durable queue {@code <name>.dead}, the reason in {@code x-tidings-reason}.
 *
 * <p>A node that did not declare a queue can still use it; it then takes max deliveries from the
 * declaring publisher's stamp on each message (or the default).
 */
public final class RabbitWorkQueue implements WorkQueue {
  private static final int DEAD_LETTER_SCAN_LIMIT = 10_000;

  private final Connection connection;
  private final ConfirmingPublisher publisher;
  private final InstantSource clock;
  private final String description;
  private final Map<String, QueueSpec> declared = new ConcurrentHashMap<>();
  private final Set<String> existing = ConcurrentHashMap.newKeySet();
  private final Set<RabbitSubscription> subscriptions = ConcurrentHashMap.newKeySet();

  private RabbitWorkQueue(
      Connection connection, RabbitQueueOptions options, InstantSource clock, String description)
      throws IOException {
    this.connection = connection;
    this.clock = clock;
    this.description = description;
    this.publisher = new ConfirmingPublisher(connection, options);
  }

  public static RabbitWorkQueue connect(URI amqpUri) {
    return connect(amqpUri, RabbitQueueOptions.defaults(), InstantSource.system());
  }

  /** Connects to {@code amqpUri} ({@code amqp://user:password@host:port/vhost}); {@code clock} stamps dead letters. */
  public static RabbitWorkQueue connect(
      URI amqpUri, RabbitQueueOptions options, InstantSource clock) {
    String description =
        amqpUri.getHost() + ":" + (amqpUri.getPort() < 0 ? 5672 : amqpUri.getPort());
    var factory = new ConnectionFactory();
    try {
      factory.setUri(amqpUri);
      factory.setAutomaticRecoveryEnabled(true);
      factory.setTopologyRecoveryEnabled(true);
      // Recovery re-registers consumers, but not queues: they are durable, so they outlive the
      // connection,
      // and they were declared on short-lived channels that are closed by the time the connection
      // recovers, where redeclaring them fails (and logs an error per queue) on every recovery.
      factory.setTopologyRecoveryFilter(new TopologyRecoveryFilter() {
        @Override
        public boolean filterQueue(RecordedQueue queue) {
          return false;
        }
      });
      factory.setNetworkRecoveryInterval(1_000);
      factory.setRequestedHeartbeat(15);
      factory.setConnectionTimeout(5_000);
      Connection connection = factory.newConnection("tidings");
      try {
        return new RabbitWorkQueue(connection, options, clock, description);
      } catch (IOException | RuntimeException e) {
        connection.abort();
        throw e;
      }
    } catch (Exception e) {
      throw new QueueUnavailableException(
          "cannot connect to RabbitMQ at " + description + ": " + e.getMessage(), e);
    }
  }

  /** Empty when the connection is up; what is wrong otherwise (for /health). */
  public Optional<String> problem() {
    if (connection.isOpen()) return Optional.empty();
    ShutdownSignalException reason = connection.getCloseReason();
    return Optional.of("RabbitMQ connection to " + description + " is closed"
        + (reason == null ? "" : ": " + reason.getMessage()) + " (recovering automatically)");
  }

  @Override
  public void declare(QueueSpec spec) {
    withChannel(spec.name(), "declare queue '" + spec.name() + "'", channel -> {
      Map<String, Object> arguments =
          spec.maxPriority() > 0 ? Map.of("x-max-priority", spec.maxPriority()) : Map.of();
      channel.queueDeclare(spec.name(), true, false, false, arguments);
      channel.queueDeclare(spec.deadLetterName(), true, false, false, Map.of());
      return null;
    });
    declared.put(spec.name(), spec);
    existing.add(spec.name());
  }

  @Override
  public void publish(String queue, Message message) {
    publishAll(queue, List.of(message));
  }

  @Override
  public void publishAll(String queue, List<Message> messages) {
    requireExisting(queue);
    QueueSpec spec = declared.get(queue);
    var outgoing = new ArrayList<ConfirmingPublisher.Outgoing>(messages.size());
    for (Message message : messages) {
      var bookkeeping = spec == null
          ? Map.<String, Object>of()
          : Map.<String, Object>of(TidingsHeaders.MAX_DELIVERIES, spec.maxDeliveries());
      outgoing.add(new ConfirmingPublisher.Outgoing(
          queue,
          properties(
              UUID.randomUUID().toString(),
              message.priority(),
              TidingsHeaders.amqp(message.headers(), bookkeeping)),
          message.body()));
    }
    publisher.publish(outgoing);
  }

  @Override
  public Subscription subscribe(String queue, int consumers, int prefetch, MessageHandler handler) {
    if (consumers < 1)
      throw new IllegalArgumentException("consumers must be at least 1 but was " + consumers);
    if (prefetch < 1)
      throw new IllegalArgumentException("prefetch must be at least 1 but was " + prefetch);
    Objects.requireNonNull(handler, "handler");
    requireExisting(queue);
    var holder = new RabbitSubscription[1];
    RabbitSubscription subscription = withChannel(
        queue,
        "subscribe to '" + queue + "'",
        _ -> new RabbitSubscription(
            connection,
            queue,
            consumers,
            prefetch,
            handler,
            (delivery, properties, disposition) -> settle(queue, delivery, properties, disposition),
            () -> subscriptions.remove(holder[0])));
    holder[0] = subscription;
    subscriptions.add(subscription);
    return subscription;
  }

  private void settle(
      String queue, Delivery delivery, AMQP.BasicProperties properties, Disposition disposition) {
    int maxDeliveries = Optional.ofNullable(declared.get(queue))
        .map(QueueSpec::maxDeliveries)
        .orElse(TidingsHeaders.integer(
            properties.getHeaders(),
            TidingsHeaders.MAX_DELIVERIES,
            QueueSpec.DEFAULT_MAX_DELIVERIES));
    switch (disposition) {
      case Disposition.Ack ack -> {}
      case Disposition.Reject reject -> deadLetter(queue, delivery, reject.reason());
      case Disposition.Retry retry
      when delivery.deliveryCount() >= maxDeliveries -> deadLetter(queue, delivery, retry.reason());
      case Disposition.Retry retry -> {
        var headers = TidingsHeaders.amqp(
            delivery.headers(),
            Map.of(
                TidingsHeaders.DELIVERIES,
                delivery.deliveryCount(),
                TidingsHeaders.MAX_DELIVERIES,
                maxDeliveries));
        publisher.publish(List.of(new ConfirmingPublisher.Outgoing(
            queue,
            properties(delivery.messageId(), delivery.priority(), headers),
            delivery.body())));
      }
    }
  }

  private void deadLetter(String queue, Delivery delivery, String reason) {
    var headers = TidingsHeaders.amqp(
        delivery.headers(),
        Map.of(
            TidingsHeaders.DELIVERIES, delivery.deliveryCount(),
            TidingsHeaders.REASON, reason,
            TidingsHeaders.DEAD_AT, micros(clock.instant())));
    publisher.publish(List.of(new ConfirmingPublisher.Outgoing(
        queue + ".dead",
        properties(delivery.messageId(), delivery.priority(), headers),
        delivery.body())));
  }

  static Delivery delivery(Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
    Map<String, Object> headers = properties.getHeaders();
    int before = TidingsHeaders.integer(headers, TidingsHeaders.DELIVERIES, 0);
    // The broker's redelivered flag means a consumer died holding it: one more delivery than
    // recorded.
    int count = before + 1 + (envelope.isRedeliver() ? 1 : 0);
    String id = properties.getMessageId() == null
        ? "tag-" + envelope.getDeliveryTag()
        : properties.getMessageId();
    int priority = properties.getPriority() == null ? 0 : properties.getPriority();
    return new Delivery(id, body, priority, count, TidingsHeaders.user(headers));
  }

  private static AMQP.BasicProperties properties(
      String messageId, int priority, Map<String, Object> headers) {
    return new AMQP.BasicProperties.Builder()
        .deliveryMode(2) // persistent
        .messageId(messageId)
        .priority(priority)
        .headers(headers)
        .build();
  }

  @Override
  public Subscription subscribeBatches(
      String queue, int consumers, int batchSize, BatchHandler handler) {
    throw new UnsupportedOperationException("batch consumption is not implemented yet");
  }

  @Override
  public long depth(String queue) {
    return withChannel(queue, "measure '" + queue + "'", channel ->
        (long) channel.queueDeclarePassive(queue).getMessageCount());
  }

  /**
   * Reads the dead-letter queue without consuming it: takes every message unacked, then closes the
   * channel, which puts them all back. Meant for inspection of a few thousand at most; newest by the
   * time they died ({@code x-tidings-dead-at}, microseconds).
   */
  @Override
  public List<DeadLetter> deadLetters(String queue, int limit) {
    if (limit < 1) throw new IllegalArgumentException("limit must be at least 1 but was " + limit);
    requireExisting(queue);
    List<DeadLetter> all = withChannel(queue, "read dead letters of '" + queue + "'", channel -> {
      var letters = new ArrayList<DeadLetter>();
      GetResponse response;
      while (letters.size() < DEAD_LETTER_SCAN_LIMIT
          && (response = channel.basicGet(queue + ".dead", false)) != null) {
        letters.add(deadLetter(response));
      }
      return letters;
    });
    // Reading requeues, and requeued messages need not keep their place: order by the time of
    // death.
    return all.reversed().stream()
        .sorted(Comparator.comparing(DeadLetter::deadAt).reversed())
        .limit(limit)
        .toList();
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private static Instant instantOfMicros(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000);
  }

  private static DeadLetter deadLetter(GetResponse response) {
    AMQP.BasicProperties properties = response.getProps();
    Map<String, Object> headers = properties.getHeaders();
    return new DeadLetter(
        Objects.requireNonNullElse(properties.getMessageId(), ""),
        response.getBody(),
        properties.getPriority() == null ? 0 : properties.getPriority(),
        TidingsHeaders.integer(headers, TidingsHeaders.DELIVERIES, 0),
        TidingsHeaders.text(headers, TidingsHeaders.REASON, ""),
        instantOfMicros(TidingsHeaders.number(headers, TidingsHeaders.DEAD_AT, 0)),
        TidingsHeaders.user(headers));
  }

  @Override
  public void close() {
    for (RabbitSubscription subscription : List.copyOf(subscriptions)) subscription.close();
    try {
      if (connection.isOpen()) connection.close(5_000);
    } catch (IOException | RuntimeException e) {
      connection.abort();
    }
  }

  /** Test hook: die as a killed process would, leaving unacked messages to the broker's requeue. */
  void abandon() {
    for (RabbitSubscription subscription : List.copyOf(subscriptions)) subscription.abandon();
    connection.abort();
  }

  /** Test hook: hold back the broker's publish confirms until {@link #resumeConfirms()}. */
  void pauseConfirms() {
    publisher.pauseConfirms();
  }

  void resumeConfirms() {
    publisher.resumeConfirms();
  }

  int publishCapacity() {
    return publisher.capacity();
  }

  private void requireExisting(String queue) {
    if (existing.contains(queue)) return;
    withChannel(queue, "look up '" + queue + "'", channel -> channel.queueDeclarePassive(queue));
    existing.add(queue);
  }

  private interface ChannelWork<T extends @Nullable Object> {
    T run(Channel channel) throws IOException;
  }

  /** Runs {@code work} on a short-lived channel: a failed passive declare closes its channel, so none is shared. */
  private <T extends @Nullable Object> T withChannel(
      String queue, String what, ChannelWork<T> work) {
    Channel channel = null;
    try {
      channel = connection.createChannel();
      return work.run(channel);
    } catch (IOException | ShutdownSignalException e) {
      if (notFound(e)) throw new UnknownQueueException(queue);
      throw new QueueUnavailableException(
          "cannot " + what + " on RabbitMQ at " + description + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      if (e instanceof UnknownQueueException || e instanceof QueueUnavailableException) throw e;
      throw new QueueUnavailableException(
          "cannot " + what + " on RabbitMQ at " + description + ": " + e.getMessage(), e);
    } finally {
      abortQuietly(channel);
    }
  }

  /** Abort, not close: the channel may be closed already, and unacked gets are requeued either way. */
  private static void abortQuietly(@Nullable Channel channel) {
    if (channel == null) return;
    try {
      channel.abort();
    } catch (IOException | RuntimeException ignored) {
      // nothing left to release
    }
  }

  private static boolean notFound(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ShutdownSignalException signal
          && signal.getReason() instanceof AMQP.Channel.Close close
          && close.getReplyCode() == AMQP.NOT_FOUND) {
        return true;
      }
    }
    return false;
  }
}
