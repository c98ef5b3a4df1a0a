package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptBatch;
import dev.tidings.delivery.ReceiptConsumer;
import dev.tidings.delivery.ReceiptQueue;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.ReceiptStore;
import dev.tidings.message.MessageId;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.Topic;
import dev.tidings.queue.rabbitmq.RabbitQueueOptions;
import dev.tidings.queue.rabbitmq.RabbitQueueType;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.RabbitCluster;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Scenario 2a: the RabbitMQ node leading the receipts' quorum queue is killed (SIGKILL) while
 * receipts are published with confirms and consumed into PostgreSQL. Every receipt whose publish was
 * confirmed must be stored once, and the funnel must be the oracle's.
 *
 * <p>The size is {@code TIDINGS_FAULT_RECEIPTS} receipts (two a message: sent, then delivered),
 * 20,000 by default so that the scenario stays near a minute on a small CI machine; 100,000 runs by
 * setting it.
 */
@Timeout(600)
class RabbitNodeKilledFaultIT {
  private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");
  private static final int RECEIPTS =
      Integer.parseInt(System.getenv().getOrDefault("TIDINGS_FAULT_RECEIPTS", "20000"));
  private static final int PER_REQUEST = 20;
  private static final int PUBLISHERS = 4;
  private static final int CONSUMERS = 4;
  private static final int MESSAGES_PER_TRANSACTION = 8;
  private static final Duration SETTLE = Duration.ofSeconds(240);

  private static RabbitCluster cluster;

  private final long campaign = 9_000_000 + System.nanoTime() % 1_000_000;
  private final Topic<ReceiptBatch> topic = new Topic<>(
      named(
          ReceiptQueue.TOPIC.spec(),
          "fault.receipts." + UUID.randomUUID().toString().substring(0, 8)),
      ReceiptQueue.TOPIC.codec());
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final List<RabbitWorkQueue> nodes = new ArrayList<>();
  private Database database;
  private int killed;

  @BeforeAll
  static void servers() {
    RealServers.requirePostgres();
    cluster = RabbitCluster.get();
  }

  @AfterEach
  void cleanUp() {
    threads.shutdownNow();
    if (killed > 0) cluster.start(killed);
    try {
      if (!nodes.isEmpty()) nodes.getFirst().delete(topic.name());
    } finally {
      nodes.forEach(RabbitWorkQueue::close);
      if (database != null) database.close();
    }
  }

  @Test
  void the_node_leading_the_receipts_queue_killed_mid_publish_loses_no_confirmed_receipt()
      throws Exception {
    database = TestDatabases.real();
    var metrics = new SimpleMeterRegistry();
    RabbitWorkQueue publishing = node(metrics);
    RabbitWorkQueue consuming = node(metrics);
    var consumer = new ReceiptConsumer(
        new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry()));
    Subscription consumers = consuming.subscribeBatches(
        topic.name(), CONSUMERS, MESSAGES_PER_TRANSACTION, topic.batchHandler(consumer));

    List<List<Receipt>> requests = requests();
    Set<String> confirmed = ConcurrentHashMap.newKeySet();
    var next = new AtomicInteger();
    var firstConfirmAfterKill = new AtomicLong(Long.MAX_VALUE);
    var killedAt = new AtomicLong(Long.MAX_VALUE);
    var refused = new AtomicInteger();
    var sink = new ReceiptQueue(publishing, topic);
    List<Future<?>> publishers = new ArrayList<>();
    long began = System.nanoTime();
    for (int p = 0; p < PUBLISHERS; p++) {
      publishers.add(threads.submit(() -> {
        for (int i = next.getAndIncrement(); i < requests.size(); i = next.getAndIncrement()) {
          List<Receipt> request = requests.get(i);
          long started = System.nanoTime();
          long deadline = started + SETTLE.toNanos();
          while (true) {
            try {
              sink.accept(request);
              break;
            } catch (QueueUnavailableException e) {
              // as a provider does after a 503: the same request again, later
              refused.incrementAndGet();
              if (System.nanoTime() > deadline) throw new AssertionError("never taken again", e);
              Thread.sleep(100);
            }
          }
          long now = System.nanoTime();
          // a publish begun before the kill may have been confirmed before it too
          if (started > killedAt.get()) firstConfirmAfterKill.accumulateAndGet(now, Math::min);
          request.forEach(receipt -> confirmed.add(id(receipt.messageId(), receipt.status())));
        }
        return null;
      }));
    }

    awaitUntil("a third of the receipts confirmed", () -> confirmed.size() >= RECEIPTS / 3);
    killed = cluster.leaderOf(topic.name() + ".p0");
    assertThat(killed).as("a node leads the receipts' lane").isPositive();
    killedAt.set(System.nanoTime());
    cluster.kill(killed);
    for (Future<?> publisher : publishers) publisher.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
    long published = System.nanoTime() - began;
    // a receipt lost shows in the tally below, so the wait ends either way
    waitFor(() -> steps().size() >= 2L * messages());
    Thread.sleep(2_000); // a redelivered copy still on its way would show as a second row
    consumers.close();

    Tally tally = Tally.of(confirmed, steps());
    Map<FunnelStep, Long> oracle = new EnumMap<>(FunnelStep.class);
    for (DeliveryStatus status : List.of(DeliveryStatus.SENT, DeliveryStatus.DELIVERED)) {
      for (FunnelStep step : FunnelStep.implied(status, false)) oracle.put(step, (long) messages());
    }
    var funnel = new DeliveryStats(database.jdbi()).campaign(campaign, T0.minusSeconds(60));
    for (FunnelStep step : FunnelStep.values())
      assertThat(funnel.count(step)).as("funnel %s", step).isEqualTo(oracle.getOrDefault(step, 0L));
    Duration recovery = firstConfirmAfterKill.get() == Long.MAX_VALUE
        ? Duration.ZERO
        : Duration.ofNanos(firstConfirmAfterKill.get() - killedAt.get());
    FaultReport.recordAndCheck(FaultReport.Outcome.of(
        "2a RabbitMQ node killed during confirmed receipt publishes",
        "3-node RabbitMQ 3.10, quorum queues; PostgreSQL",
        tally,
        0,
        recovery,
        String.format(
            "%d receipts in %d requests by %d publishers, %.1f s; SIGKILL to %s leading the lane"
                + " a third in; %d requests refused while it was lost and published again;"
                + " connections recovered on another node: %.0f, funnel equal to the oracle",
            RECEIPTS,
            requests.size(),
            PUBLISHERS,
            published / 1e9,
            cluster.nodeName(killed),
            refused.get(),
            metrics
                .find("tidings_amqp_connection_recoveries")
                .tag("node", "other")
                .counters()
                .stream()
                .mapToDouble(counter -> counter.count())
                .sum())));
  }

  private int messages() {
    return RECEIPTS / 2;
  }

  /** Each message's sent then delivered receipt, in requests of {@value #PER_REQUEST}. */
  private List<List<Receipt>> requests() {
    List<Receipt> receipts = new ArrayList<>(RECEIPTS);
    for (int i = 0; i < messages(); i++) {
      String message = new MessageId(campaign, 1, "k" + i).text();
      Instant sent = T0.plusMillis(i);
      receipts.add(Receipt.of(message, DeliveryStatus.SENT, sent, ReceiptSource.SMTP));
      receipts.add(
          Receipt.of(message, DeliveryStatus.DELIVERED, sent.plusSeconds(3), ReceiptSource.API));
    }
    List<List<Receipt>> requests = new ArrayList<>();
    for (int from = 0; from < receipts.size(); from += PER_REQUEST)
      requests.add(
          List.copyOf(receipts.subList(from, Math.min(receipts.size(), from + PER_REQUEST))));
    return requests;
  }

  /** Every stored row of the sent and delivered steps, duplicates kept, as receipt ids. */
  private List<String> steps() {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT message_id, step FROM message_steps WHERE campaign_id = :c"
                + " AND step IN (:sent, :delivered)")
            .bind("c", campaign)
            .bind("sent", FunnelStep.SENT.code())
            .bind("delivered", FunnelStep.DELIVERED.code())
            .map((rs, ctx) -> id(
                rs.getString("message_id"),
                rs.getInt("step") == FunnelStep.SENT.code()
                    ? DeliveryStatus.SENT
                    : DeliveryStatus.DELIVERED))
            .list());
  }

  private static String id(String message, DeliveryStatus status) {
    return message + "/" + status;
  }

  private RabbitWorkQueue node(SimpleMeterRegistry metrics) {
    var node = RabbitWorkQueue.connect(
        cluster.amqpUrl(),
        RabbitQueueOptions.defaults().withQueueType(RabbitQueueType.QUORUM),
        InstantSource.system(),
        metrics);
    nodes.add(node);
    node.declare(topic.spec());
    return node;
  }

  private static QueueSpec named(QueueSpec production, String name) {
    return new QueueSpec(
        name,
        production.maxPriority(),
        production.maxDeliveries(),
        production.visibilityTimeout(),
        production.handlerTimeout(),
        production.retry(),
        production.oldestEvery());
  }

  private static boolean waitFor(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) return false;
      Thread.sleep(200);
    }
    return true;
  }

  private static void awaitUntil(String what, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline)
        throw new AssertionError("not within " + SETTLE + ": " + what);
      Thread.sleep(200);
    }
  }
}
