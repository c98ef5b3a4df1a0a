package dev.tidings.queue.rabbitmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.Subscription;
import dev.tidings.testing.RealServers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What is particular to the RabbitMQ layout: its queues going missing, its channels closed by the broker, its dead-letter stream. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RabbitAdapterIT {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final String name = "adapter-" + UUID.randomUUID().toString().substring(0, 12);
  private final QueueSpec spec = QueueSpec.of(name);
  private RabbitWorkQueue queue;

  @BeforeAll
  static void requireBroker() {
    RealServers.requireRabbitMq();
  }

  @BeforeEach
  void declare() {
    queue = RabbitWorkQueue.connect(
        RealServers.amqpUrl(),
        RabbitQueueOptions.defaults(),
        InstantSource.system(),
        new SimpleMeterRegistry());
    queue.declare(spec);
  }

  @AfterEach
  void cleanUp() {
    try {
      queue.close();
    } finally {
      RabbitWorkQueueIT.deleteAll(name, new LinkedHashSet<>(RabbitLayout.queueNames(spec)));
    }
  }

  @Test
  void a_publish_the_broker_cannot_route_fails_instead_of_being_confirmed_into_nowhere()
      throws Exception {
    String lane = RabbitLayout.laneName(name, 3);
    onTheBroker(channel -> channel.queueDelete(lane));

    assertThatThrownBy(() -> queue.publish(name, text("lost?", 3)))
        .isInstanceOf(QueueUnavailableException.class)
        .hasMessageContaining(lane)
        .hasMessageContaining("declare");
    queue.publish(name, text("other lanes still work", 4));

    queue.declare(spec);
    queue.publish(name, text("declared again", 3));
    assertThat(queue.depth(name)).isEqualTo(2);
  }

  @Test
  void consumers_whose_channel_the_broker_closed_consume_again() throws Exception {
    Set<String> consumed = ConcurrentHashMap.newKeySet();
    try (Subscription subscription = queue.subscribe(name, 2, 5, delivery -> {
      consumed.add(new String(delivery.body(), UTF_8));
      return Disposition.ACK;
    })) {
      queue.publish(name, text("before", 5));
      awaitUntil("the first message consumed", () -> consumed.contains("before"));

      queue.provokeConsumerChannelErrors(); // the broker closes each with PRECONDITION_FAILED
      List<String> after = IntStream.range(0, 20).mapToObj(i -> "after-" + i).toList();
      queue.publishAll(name, after.stream().map(body -> text(body, i(body))).toList());

      awaitUntil(
          "messages published after the channel error consumed", () -> consumed.containsAll(after));
      assertThat(subscription).isNotNull();
    }
  }

  @Test
  void consumers_whose_connection_the_broker_closed_consume_again() throws Exception {
    Set<String> consumed = ConcurrentHashMap.newKeySet();
    try (Subscription subscription = queue.subscribe(name, 1, 5, delivery -> {
      consumed.add(new String(delivery.body(), UTF_8));
      return Disposition.ACK;
    })) {
      queue.publish(name, text("before", 5));
      awaitUntil("the first message consumed", () -> consumed.contains("before"));

      List<String> closed =
          RabbitNodeFaults.closeConnectionsNamed(List.of(queue.consumingConnectionName()));
      assertThat(closed).as("rabbitmqctl closed the consuming connection").isNotEmpty();
      List<String> after = IntStream.range(0, 10).mapToObj(i -> "after-" + i).toList();
      queue.publishAll(name, after.stream().map(body -> text(body, 2)).toList());

      awaitUntil("messages published after the close consumed", () -> consumed.containsAll(after));
      assertThat(subscription).isNotNull();
    }
  }

  @Test
  void dead_letters_are_the_newest_however_many_there_are() {
    int count = 2_500;
    List<String> sent = IntStream.range(0, count).mapToObj(i -> "d" + i).toList();
    for (int from = 0; from < count; from += 500)
      queue.publishAll(
          name,
          sent.subList(from, from + 500).stream().map(body -> text(body, 1)).toList());
    try (Subscription rejecting = queue.subscribeBatches(name, 1, 100, batch -> {
      var exceptions = new HashMap<String, Disposition>();
      batch.forEach(delivery -> exceptions.put(delivery.messageId(), Disposition.reject("no")));
      return BatchResult.except(exceptions);
    })) {
      awaitUntil(
          "every message dead",
          () -> queue.depth(name) == 0
              && queue.deadLetters(name, 1).stream().anyMatch(dead -> body(dead).equals("d2499")));
      assertThat(rejecting).isNotNull();
    }

    assertThat(queue.deadLetters(name, 5))
        .extracting(RabbitAdapterIT::body)
        .containsExactly("d2499", "d2498", "d2497", "d2496", "d2495");
    List<DeadLetter> many = queue.deadLetters(name, 1_500);
    assertThat(many).hasSize(1_500);
    assertThat(many.getFirst()).extracting(RabbitAdapterIT::body).isEqualTo("d2499");
    assertThat(many.getLast()).extracting(RabbitAdapterIT::body).isEqualTo("d1000");
    assertThat(queue.deadLetters(name, 10_000)).hasSize(count);
  }

  @Test
  void a_delayed_message_walks_the_ladder_into_its_lane_without_any_consumer() {
    Instant due = Instant.now().plusSeconds(2);
    var registry = new SimpleMeterRegistry();
    try (var publisher = RabbitWorkQueue.connect(
        RealServers.amqpUrl(), RabbitQueueOptions.defaults(), InstantSource.system(), registry)) {
      publisher.publish(name, text("later", 4).notBefore(due));
      assertThat(registry.get(RabbitWorkQueue.DELAY_LADDER_WAITING).gauge().value())
          .as("on the ladder (with whatever other builds delayed)")
          .isGreaterThanOrEqualTo(1);
      assertThat(registry
              .get(QueueCounters.DELAYED_PUBLISHED)
              .tag("queue", name)
              .counter()
              .count())
          .isEqualTo(1);
    }
    assertThat(queue.depth(name)).as("nothing in the lanes before it is due").isZero();

    awaitUntil("in its lane", () -> queue.depth(name) == 1);
    assertThat(Instant.now()).isAfterOrEqualTo(due);
    assertThat(queue.depth(name)).isEqualTo(1);
  }

  @Test
  void a_node_that_publishes_delayed_messages_binds_lanes_declared_without_the_ladder()
      throws Exception {
    var ladder = new DelayLadder(RabbitQueueType.CLASSIC);
    String lane = RabbitLayout.laneName(name, 6);
    // as a queue declared by an earlier version is
    onTheBroker(channel ->
        channel.queueUnbind(lane, ladder.dueExchange(), "*.".repeat(DelayLadder.LEVELS) + lane));

    try (var otherNode = RabbitWorkQueue.connect(
        RealServers.amqpUrl(),
        RabbitQueueOptions.defaults(),
        InstantSource.system(),
        new SimpleMeterRegistry())) {
      otherNode.publish(
          name, text("to a lane bound again", 6).notBefore(Instant.now().plusSeconds(1)));
    }

    awaitUntil("in its lane", () -> queue.depth(name) == 1);
  }

  @Test
  void a_delayed_message_whose_queue_is_gone_when_it_is_due_is_kept_aside() throws Exception {
    var ladder = new DelayLadder(RabbitQueueType.CLASSIC);
    queue.publish(
        name,
        new Message("orphan".getBytes(UTF_8), 2, Map.of("test", name))
            .notBefore(Instant.now().plusSeconds(1)));
    queue.delete(name);

    var found = new java.util.concurrent.atomic.AtomicBoolean();
    awaitUntil("kept in " + ladder.unrouted(), () -> {
      try {
        onTheBroker(channel -> found.compareAndSet(false, takeOwn(channel, ladder.unrouted())));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      return found.get();
    });
  }

  /** Takes this test's message from {@code queue}, leaving every other one there; whether it was there. */
  private boolean takeOwn(Channel channel, String queue) throws IOException {
    boolean own = false;
    var others = new java.util.ArrayList<Long>();
    for (int i = 0; i < 1_000; i++) {
      var response = channel.basicGet(queue, false);
      if (response == null) break;
      long tag = response.getEnvelope().getDeliveryTag();
      Map<String, Object> headers = response.getProps().getHeaders();
      if (headers != null && name.equals(String.valueOf(headers.get("test")))) {
        channel.basicAck(tag, false);
        own = true;
      } else {
        others.add(tag);
      }
    }
    for (long tag : others) channel.basicNack(tag, false, true); // the others go back
    return own;
  }

  private static int i(String body) {
    return body.hashCode() & 7;
  }

  private static String body(DeadLetter dead) {
    return new String(dead.body(), StandardCharsets.UTF_8);
  }

  private static Message text(String body, int priority) {
    return new Message(body.getBytes(UTF_8), priority, Map.of());
  }

  private interface ChannelCall {
    void run(Channel channel) throws IOException;
  }

  private static void onTheBroker(ChannelCall call) throws Exception {
    var factory = new ConnectionFactory();
    factory.setUri(RealServers.amqpUrl());
    try (Connection connection = factory.newConnection("tidings-adapter-test");
        Channel channel = connection.createChannel()) {
      call.run(channel);
    }
  }

  private static void awaitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline)
        throw new AssertionError("not within " + WAIT + ": " + what);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
    }
  }
}
