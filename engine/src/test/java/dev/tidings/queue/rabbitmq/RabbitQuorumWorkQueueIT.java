package dev.tidings.queue.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.WorkQueueContract;
import dev.tidings.testing.RabbitCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The work-queue contract on quorum queues of a RabbitMQ cluster of three nodes of the test's own
 * ({@link RabbitCluster}), reached through a URL naming all three. Queues are deleted after each test.
 */
class RabbitQuorumWorkQueueIT extends WorkQueueContract {
  private static final RabbitQueueOptions QUORUM =
      new RabbitQueueOptions(2, 4, Duration.ofSeconds(15), RabbitQueueType.QUORUM);

  private static RabbitCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = RabbitCluster.get();
  }

  private final List<RabbitWorkQueue> opened = new ArrayList<>();

  @Override
  protected WorkQueue openQueue() {
    var queue = RabbitWorkQueue.connect(cluster.amqpUrl(), QUORUM, InstantSource.system(), metrics);
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
    return QUORUM.publishChannels() * QUORUM.maxUnconfirmedPerChannel();
  }

  @Override
  protected void deleteQueue(String name) {
    Set<String> queues = new LinkedHashSet<>();
    opened.forEach(queue -> queues.addAll(queue.declaredQueues(name)));
    opened.clear();
    deleteAll(cluster.nodeUrl(1), name, queues);
  }

  @Test
  void lanes_and_delay_queues_are_quorum_queues_and_a_classic_one_is_refused_by_name()
      throws Exception {
    String name = "quorum-check-" + UUID.randomUUID();
    var spec = QueueSpec.of(name);
    try (var queue = RabbitWorkQueue.connect(
        cluster.amqpUrl(), QUORUM, InstantSource.system(), new SimpleMeterRegistry())) {
      queue.declare(spec);
      List<String> declared = queue.declaredQueues(name);
      assertThat(declared).anyMatch(each -> each.contains(".retry."));
      var factory = new ConnectionFactory();
      factory.setUri(cluster.nodeUrl(1));
      try (Connection connection = factory.newConnection("tidings-test-type-check")) {
        for (String each : declared) {
          if (each.endsWith(".dead-letters")) continue;
          // a passive declare names no type: the type shows by a declare that asks the same
          // arguments but classic
          var layout = RabbitLayout.of(spec);
          var arguments = new HashMap<String, Object>(
              each.contains(".retry.")
                  ? layout.delayArguments(
                      RabbitQueueType.QUORUM,
                      Duration.ofMillis(Long.parseLong(each.substring(each.lastIndexOf('.') + 1))))
                  : layout.laneArguments(RabbitQueueType.QUORUM));
          arguments.put("x-queue-type", "classic");
          Channel channel = connection.createChannel(); // closed by the broker's refusal
          assertThatThrownBy(() -> channel.queueDeclare(each, true, false, false, arguments))
              .hasStackTraceContaining("x-queue-type")
              .hasStackTraceContaining("current is 'quorum'");
        }
      }
      queue.delete(name);
    }
    String classic = "classic-first-" + UUID.randomUUID();
    try (var before = RabbitWorkQueue.connect(
            cluster.amqpUrl(),
            QUORUM.withQueueType(RabbitQueueType.CLASSIC),
            InstantSource.system(),
            new SimpleMeterRegistry());
        var after = RabbitWorkQueue.connect(
            cluster.amqpUrl(), QUORUM, InstantSource.system(), new SimpleMeterRegistry())) {
      before.declare(QueueSpec.of(classic));
      assertThatThrownBy(() -> after.declare(QueueSpec.of(classic)))
          .isInstanceOf(QueueTypeConflictException.class)
          .hasMessageContaining("'" + classic + ".p0'")
          .hasMessageContaining("TIDINGS_AMQP_QUEUE_TYPE=quorum")
          .hasMessageContaining("PRECONDITION_FAILED");
      before.delete(classic);
    }
  }

  @Test
  void a_delayed_message_survives_the_loss_of_the_node_leading_its_ladder_level() throws Exception {
    String name = "quorum-delay-" + UUID.randomUUID();
    int killed = 0;
    try (var queue = RabbitWorkQueue.connect(
        cluster.amqpUrl(), QUORUM, InstantSource.system(), new SimpleMeterRegistry())) {
      queue.declare(QueueSpec.of(name));
      BlockingQueue<Instant> received = new LinkedBlockingQueue<>();
      Subscription subscription = queue.subscribe(name, 1, 1, delivery -> {
        received.add(Instant.now());
        return Disposition.ACK;
      });
      try {
        Instant due = Instant.now().plusSeconds(6);
        // 6 s: 4 on level 2, then 2 on level 1
        queue.publish(name, Message.of(new byte[] {6}, 3).notBefore(due));
        killed = cluster.leaderOf(new DelayLadder(RabbitQueueType.QUORUM).queue(2));
        assertThat(killed).as("a node leads level 2").isPositive();
        cluster.kill(killed);

        Instant at = received.poll(60, TimeUnit.SECONDS);
        assertThat(at)
            .as("delivered although the node holding it as leader died")
            .isNotNull();
        assertThat(at).isAfterOrEqualTo(due);
        System.out.printf(
            "delayed message delivered %d ms after its time, its ladder level's leader killed%n",
            Duration.between(due, at).toMillis());
        assertThat(received.poll(1, TimeUnit.SECONDS)).as("delivered once").isNull();
      } finally {
        subscription.close();
      }
      queue.delete(name);
    } finally {
      if (killed > 0) cluster.start(killed);
    }
  }

  static void deleteAll(URI node, String name, Set<String> queues) {
    var factory = new ConnectionFactory();
    try {
      factory.setUri(node);
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
