package dev.tidings.queue.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.Subscription;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TcpProxy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The connection to RabbitMQ drops under a {@link RabbitWorkQueue}: a TCP proxy in front of the
 * machine's broker is cut (every connection dropped, new ones refused) and restored, so the broker
 * itself stays up for every other build. Recovery is the client's automatic connection recovery.
 */
class RabbitFaultIT {
  private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(3);
  private static final RabbitQueueOptions OPTIONS = new RabbitQueueOptions(2, 16, CONFIRM_TIMEOUT);
  /** Recovery retries every second; a few attempts at most once the proxy is back. */
  private static final Duration RECOVERY = Duration.ofSeconds(15);

  private static final Duration OUTAGE = Duration.ofSeconds(2);

  private final String queueName = "fault-" + UUID.randomUUID();
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private TcpProxy proxy;
  private RabbitWorkQueue queue;

  @BeforeAll
  static void requireBroker() {
    RealServers.requireRabbitMq();
  }

  @BeforeEach
  void connectThroughAProxy() {
    URI broker = RealServers.amqpUrl();
    proxy = TcpProxy.to(broker.getHost(), broker.getPort() < 0 ? 5672 : broker.getPort());
    URI proxied = URI.create(broker.getScheme() + "://" + broker.getRawUserInfo() + "@127.0.0.1:"
        + proxy.port() + (broker.getRawPath() == null ? "" : broker.getRawPath()));
    queue = RabbitWorkQueue.connect(
        proxied, OPTIONS, InstantSource.system(), new SimpleMeterRegistry());
    queue.declare(QueueSpec.of(queueName));
  }

  @AfterEach
  void cleanUp() {
    threads.shutdownNow();
    try {
      if (queue != null) queue.close();
    } finally {
      proxy.close();
      deleteQueues();
    }
  }

  @Test
  void a_publish_during_an_outage_is_confirmed_or_refused_within_the_confirm_timeout()
      throws Exception {
    Set<String> published = ConcurrentHashMap.newKeySet();
    publish("before", published);
    assertThat(queue.problem()).isEmpty();

    proxy.cut();
    assertThat(poll(Duration.ofSeconds(5), () -> queue.problem().isPresent()))
        .as("problem() reports the outage")
        .isTrue();
    assertThat(queue.problem())
        .hasValueSatisfying(problem -> assertThat(problem).contains("closed"));
    for (int i = 0; i < 5; i++) {
      long started = System.nanoTime();
      // Returns only if the broker confirmed; otherwise refuses within the confirm timeout.
      assertTimeoutPreemptively(
          CONFIRM_TIMEOUT.plusSeconds(2),
          () -> publishOrRefused("during-" + UUID.randomUUID(), published));
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isLessThan(CONFIRM_TIMEOUT.plusSeconds(1));
    }
    Thread.sleep(OUTAGE.toMillis());
    proxy.restore();

    assertThat(poll(RECOVERY, () -> queue.problem().isEmpty()))
        .as("problem() clears after recovery")
        .isTrue();
    assertThat(poll(RECOVERY, () -> publishOrRefused("after-" + UUID.randomUUID(), published)))
        .as("publishing works again after recovery")
        .isTrue();

    Set<String> consumed = ConcurrentHashMap.newKeySet();
    try (Subscription _ = queue.subscribe(queueName, 1, 10, delivery -> {
      consumed.add(id(delivery));
      return Disposition.ACK;
    })) {
      assertThat(poll(RECOVERY, () -> consumed.containsAll(published)))
          .as("every confirmed publish is delivered; missing: %s", missing(published, consumed))
          .isTrue();
    }
  }

  @Test
  void a_publish_to_a_hung_broker_is_refused_within_the_confirm_timeout() throws Exception {
    Set<String> published = ConcurrentHashMap.newKeySet();
    publish("before", published);

    proxy.freeze(); // the connection stays up, but no confirm can come back
    try {
      long started = System.nanoTime();
      assertTimeoutPreemptively(
          CONFIRM_TIMEOUT.plusSeconds(2),
          () -> assertThat(publishOrRefused("hung", published))
              .as("a publish the broker never confirmed must not return")
              .isFalse());
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isBetween(CONFIRM_TIMEOUT, CONFIRM_TIMEOUT.plusSeconds(1));
    } finally {
      proxy.unfreeze();
    }

    assertThat(poll(RECOVERY, () -> publishOrRefused("after-" + UUID.randomUUID(), published)))
        .as("publishing works again once the broker answers")
        .isTrue();
    assertThat(queue.problem()).isEmpty();
    Set<String> consumed = ConcurrentHashMap.newKeySet();
    try (Subscription _ = queue.subscribe(queueName, 1, 10, delivery -> {
      consumed.add(id(delivery));
      return Disposition.ACK;
    })) {
      assertThat(poll(RECOVERY, () -> consumed.containsAll(published)))
          .as("every confirmed publish is delivered; missing: %s", missing(published, consumed))
          .isTrue();
    }
  }

  @Test
  void consumers_get_their_unacked_messages_again_after_recovery_and_nothing_confirmed_is_lost()
      throws Exception {
    Set<String> published = ConcurrentHashMap.newKeySet();
    Map<String, Integer> deliveries = new ConcurrentHashMap<>();
    Set<String> redelivered = ConcurrentHashMap.newKeySet();
    var cut = new CountDownLatch(1);
    int held = 4;
    var holding = new CountDownLatch(held);
    Set<String> heldIds = ConcurrentHashMap.newKeySet();
    var stopPublishing = new AtomicBoolean();
    var refused = new AtomicInteger();

    try (Subscription _ = queue.subscribe(queueName, 2, 5, delivery -> {
      String id = id(delivery);
      deliveries.merge(id, 1, Integer::sum);
      if (delivery.redelivered()) redelivered.add(id);
      // The first few are still unacked when the connection drops: their acks can only fail.
      if (heldIds.size() < held && heldIds.add(id)) {
        holding.countDown();
        cut.await(30, TimeUnit.SECONDS);
      }
      return Disposition.ACK;
    })) {
      Future<?> publisher = threads.submit(() -> {
        for (int i = 0; !stopPublishing.get(); i++) {
          if (publishOrRefused("m-" + i, published)) {
            Thread.sleep(2); // a steady trickle, a few hundred messages over the test
          } else {
            refused.incrementAndGet();
            Thread.sleep(100);
          }
        }
        return null;
      });
      assertThat(holding.await(10, TimeUnit.SECONDS))
          .as("consumers hold %s unacked messages", held)
          .isTrue();
      assertThat(poll(Duration.ofSeconds(10), () -> published.size() >= 50))
          .as("a first batch is confirmed")
          .isTrue();

      proxy.cut();
      cut.countDown();
      assertThat(poll(Duration.ofSeconds(5), () -> queue.problem().isPresent()))
          .as("problem() reports the outage")
          .isTrue();
      Thread.sleep(OUTAGE.toMillis());
      int publishedBeforeRecovery = published.size();
      proxy.restore();

      assertThat(poll(RECOVERY, () -> queue.problem().isEmpty()))
          .as("problem() clears after recovery")
          .isTrue();
      assertThat(poll(RECOVERY, () -> published.size() >= publishedBeforeRecovery + 50))
          .as("publishing resumes")
          .isTrue();
      stopPublishing.set(true);
      assertTimeoutPreemptively(CONFIRM_TIMEOUT.plusSeconds(2), () -> publisher.get());

      assertThat(poll(RECOVERY, () -> redelivered.containsAll(heldIds)))
          .as(
              "the messages held unacked at the cut are delivered again (redelivered: %s, held: %s)",
              redelivered, heldIds)
          .isTrue();
      assertThat(poll(RECOVERY, () -> deliveries.keySet().containsAll(published)))
          .as(
              "every confirmed publish is consumed at least once; missing: %s",
              missing(published, deliveries.keySet()))
          .isTrue();
      System.err.printf(
          "RabbitFaultIT: %d confirmed, %d refused, %d consumed, %d redelivered%n",
          published.size(), refused.get(), deliveries.size(), redelivered.size());
    }
  }

  /** True when the publish returned (so the broker confirmed it); false when it was refused with QueueUnavailableException. */
  private boolean publishOrRefused(String id, Set<String> published) {
    try {
      queue.publish(queueName, Message.of(id.getBytes(StandardCharsets.UTF_8), 0));
      published.add(id);
      return true;
    } catch (QueueUnavailableException refused) {
      return false;
    }
  }

  private void publish(String id, Set<String> published) {
    queue.publish(queueName, Message.of(id.getBytes(StandardCharsets.UTF_8), 0));
    published.add(id);
  }

  private static String id(Delivery delivery) {
    return new String(delivery.body(), StandardCharsets.UTF_8);
  }

  private static Set<String> missing(Set<String> published, Set<String> consumed) {
    Set<String> missing = ConcurrentHashMap.newKeySet();
    missing.addAll(published);
    missing.removeAll(consumed);
    return missing;
  }

  private static boolean poll(Duration bound, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) return true;
      Thread.sleep(50);
    }
    return condition.getAsBoolean();
  }

  /** Straight to the broker, not through the proxy, so that cleaning up does not depend on the fault. */
  private void deleteQueues() {
    RabbitWorkQueueIT.deleteAll(
        queueName, new LinkedHashSet<>(RabbitLayout.queueNames(QueueSpec.of(queueName))));
  }
}
