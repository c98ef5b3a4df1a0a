package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import dev.tidings.delivery.webhook.DeliveryWebhooks;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.Topic;
import dev.tidings.queue.rabbitmq.RabbitNodeFaults;
import dev.tidings.queue.rabbitmq.RabbitQueueOptions;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TcpProxy;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.HttpServer;
import dev.tidings.web.delivery.DeliveryWebhookRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
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
import org.junit.jupiter.api.Timeout;

/**
 * The delivery pipeline under faults, on the real RabbitMQ and PostgreSQL: a consumer killed between
 * its commit and its ack, the broker closing the connections mid-run, PostgreSQL out of reach for a
 * while, and every receipt answered 2xx over HTTP reconciled with the database. Each run ends where
 * the sequential oracle of {@link ReceiptStories} says, with nothing dead-lettered.
 *
 * <p>The queue has the production topic's spec (retries, backoff, deliveries before the dead-letter
 * queue) under a name of its own, since other builds share the broker.
 */
@Timeout(120)
class DeliveryFaultsIT {
  private static final Instant T0 = Instant.parse("2026-04-01T10:00:00Z");
  private static final int MESSAGES = 600;
  private static final int CONSUMERS = 4;
  /** Queue messages per transaction, as a node runs the receipts' consumers. */
  private static final int MESSAGES_PER_TRANSACTION = 8;
  /** A bound for the pipeline to settle after a fault, far above what it needs. */
  private static final Duration SETTLE = Duration.ofSeconds(60);
  /** How long PostgreSQL stays out of reach, at least. */
  private static final Duration OUTAGE = Duration.ofSeconds(3);
  /** Paces the publishers so that the fault lands while receipts are still arriving. */
  private static final Duration PACE = Duration.ofMillis(8);

  private static final int HTTP_CLIENTS = 8;
  private static final String API_KEY = "delivery-faults-key-0123456789";

  private final long campaign = 8_000_000 + System.nanoTime() % 1_000_000;
  private final Topic<ReceiptBatch> topic = productionTopicNamed(
      "test.delivery.faults." + UUID.randomUUID().toString().substring(0, 8));
  private final ReceiptStories stories =
      ReceiptStories.generate(campaign, MESSAGES, T0, new Random(campaign));
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final List<RabbitWorkQueue> nodes = new ArrayList<>();
  private Database database;

  @BeforeAll
  static void servers() {
    RealServers.requireRabbitMq();
    RealServers.requirePostgres();
  }

  @BeforeEach
  void freshSchema() {
    database = TestDatabases.real();
  }

  @AfterEach
  void cleanUp() {
    threads.shutdownNow();
    try (RabbitWorkQueue cleaner =
        RabbitWorkQueue.connect(RealServers.amqpUrl(), new SimpleMeterRegistry())) {
      cleaner.declare(topic.spec());
      cleaner.delete(topic.name());
    } finally {
      nodes.forEach(RabbitWorkQueue::close);
      database.close();
    }
  }

  @Test
  void a_consumer_killed_between_commit_and_ack_is_redelivered_and_changes_nothing()
      throws Exception {
    RabbitWorkQueue dying = node();
    RabbitWorkQueue survivor = node();
    var store =
        new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry());
    var consumer = new ReceiptConsumer(store);
    Set<String> killedHolding = ConcurrentHashMap.newKeySet();
    var killed = new AtomicBoolean();
    Topic.BatchOf<ReceiptBatch> commitThenDie = batch -> {
      BatchResult result = consumer.handle(batch);
      // The transaction has committed; the process dies before its acks reach the broker.
      if (killed.compareAndSet(false, true)) {
        batch.forEach(received -> killedHolding.add(received.delivery().messageId()));
        RabbitNodeFaults.killAsAProcessWould(dying);
      }
      return result;
    };
    var survivors = new Watched(consumer);
    // never closed: a killed process settles nothing, and its connections are gone
    dying.subscribeBatches(
        topic.name(), CONSUMERS / 2, MESSAGES_PER_TRANSACTION, topic.batchHandler(commitThenDie));
    Subscription survivingConsumers = survivor.subscribeBatches(
        topic.name(), CONSUMERS / 2, MESSAGES_PER_TRANSACTION, topic.batchHandler(survivors));

    var sink = new ReceiptQueue(survivor, topic);
    for (List<Receipt> request : requests(stories.receipts(), 40)) sink.accept(request);

    awaitUntil("the dying node commits a batch and dies", killed::get);
    awaitUntil(
        "the survivor handles again every message the killed node committed but did not ack",
        () -> survivors.handledAgain().containsAll(killedHolding));
    awaitDrained(survivor, survivors);
    survivingConsumers.close();

    assertThat(killedHolding).isNotEmpty();
    assertTheOracle(true);
    assertNothingDeadLettered(survivor);
  }

  @Test
  void a_consumer_dying_with_an_error_after_its_commit_gets_its_batch_again_and_goes_on()
      throws Exception {
    RabbitWorkQueue queue = node();
    var consumer = new ReceiptConsumer(
        new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry()));
    Set<String> diedHolding = ConcurrentHashMap.newKeySet();
    var deaths = new AtomicInteger();
    Topic.BatchOf<ReceiptBatch> commitThenError = batch -> {
      BatchResult result = consumer.handle(batch);
      boolean firstDeliveries =
          batch.stream().allMatch(received -> !received.delivery().redelivered());
      if (firstDeliveries && deaths.getAndIncrement() < 2) {
        batch.forEach(received -> diedHolding.add(received.delivery().messageId()));
        throw new AssertionError("the consumer dies after its transaction committed");
      }
      return result;
    };
    var watched = new Watched(commitThenError);
    Subscription consumers = queue.subscribeBatches(
        topic.name(), CONSUMERS, MESSAGES_PER_TRANSACTION, topic.batchHandler(watched));

    var sink = new ReceiptQueue(queue, topic);
    for (List<Receipt> request : requests(stories.receipts(), 40)) sink.accept(request);

    awaitUntil(
        "every message a consumer died holding is applied again",
        () -> deaths.get() >= 2 && watched.handledAgain().containsAll(diedHolding));
    awaitDrained(queue, watched);
    consumers.close();

    assertThat(diedHolding).isNotEmpty();
    assertTheOracle(true);
    assertNothingDeadLettered(queue);
  }

  @Test
  void the_broker_closing_the_connections_mid_run_loses_nothing() throws Exception {
    RabbitWorkQueue queue = node();
    var watched = new Watched(new ReceiptConsumer(
        new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry())));
    Subscription consumers = queue.subscribeBatches(
        topic.name(), CONSUMERS, MESSAGES_PER_TRANSACTION, topic.batchHandler(watched));
    var cut = new CountDownLatch(1);
    var publisher =
        new Publisher(new ReceiptQueue(queue, topic), requests(stories.receipts(), 20), cut);
    Future<?> publishing = threads.submit(publisher);

    awaitUntil(
        "a sixth of the receipts published and some applied",
        () -> publisher.published() >= publisher.requests() / 6 && watched.batches() > 0);
    List<String> closed = RabbitNodeFaults.closeConnectionsFromTheBroker(queue);
    cut.countDown();
    assertThat(closed).as("the broker closed both connections of the node").hasSize(2);

    publishing.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
    // drained means consumed: what was published after the close needed recovered consumers
    awaitDrained(queue, watched);
    consumers.close();

    System.err.printf(
        "DeliveryFaultsIT: broker closed %s; %d requests refused while recovering%n",
        closed, publisher.refused());
    assertTheOracle(true);
    assertNothingDeadLettered(queue);
  }

  @Test
  void receipts_wait_while_postgresql_is_out_of_reach_and_none_is_lost() throws Exception {
    RabbitWorkQueue queue = node();
    URI direct = URI.create(RealServers.postgresJdbcUrl().substring("jdbc:".length()));
    try (TcpProxy proxy =
            TcpProxy.to(direct.getHost(), direct.getPort() < 0 ? 5432 : direct.getPort());
        Database proxied = Database.connect(
            new ConnectionSpec(
                "jdbc:postgresql://127.0.0.1:" + proxy.port() + direct.getRawPath()
                    + (direct.getRawQuery() == null ? "" : "?" + direct.getRawQuery()),
                Optional.empty(),
                Optional.empty(),
                database.schema(),
                8),
            () -> {},
            new SimpleMeterRegistry())) {
      var consumer = new ReceiptConsumer(
          new ReceiptStore(proxied.jdbi(), InstantSource.system(), new SimpleMeterRegistry()));
      var watched = new Watched(consumer);
      Subscription consumers = queue.subscribeBatches(
          topic.name(), CONSUMERS, MESSAGES_PER_TRANSACTION, topic.batchHandler(watched));
      var cut = new CountDownLatch(1);
      var publisher =
          new Publisher(new ReceiptQueue(queue, topic), requests(stories.receipts(), 20), cut);
      Future<?> publishing = threads.submit(publisher);

      awaitUntil(
          "a sixth of the receipts published and some applied",
          () -> publisher.published() >= publisher.requests() / 6 && watched.batches() > 0);
      long restoreAt = System.nanoTime() + OUTAGE.toNanos();
      proxy.cut();
      cut.countDown();
      // Cut at least until a transaction failed for it (a broken connection fails at once, a
      // refused one after the pool's connection timeout), so that the consumers hold their batches.
      awaitUntil("a consumer holds its batch for the outage", () -> consumer.heldAttempts() > 0);
      Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(restoreAt - System.nanoTime())));
      proxy.restore();

      publishing.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
      awaitDrained(queue, watched);
      consumers.close();

      System.err.printf(
          "DeliveryFaultsIT: batches were held %d times during the outage and then applied%n",
          consumer.heldAttempts());
      assertThat(watched.failures())
          .as("an outage spends none of the queue's deliveries")
          .isZero();
      assertTheOracle(true);
      assertNothingDeadLettered(queue);
    }
  }

  @Test
  void every_receipt_answered_2xx_over_http_is_in_postgresql() throws Exception {
    RabbitWorkQueue queue = node();
    var watched = new Watched(new ReceiptConsumer(
        new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry())));
    Subscription consumers = queue.subscribeBatches(
        topic.name(), CONSUMERS, MESSAGES_PER_TRANSACTION, topic.batchHandler(watched));
    var sink = new ReceiptQueue(queue, topic);
    // Send records come from the sender, not the API: a message becomes known through them, and the
    // API's receipts that overtake them are parked until they arrive.
    List<Receipt> sends = new ArrayList<>();
    List<Receipt> events = new ArrayList<>();
    for (Receipt receipt : stories.receipts())
      (receipt.source() == ReceiptSource.SMTP ? sends : events).add(receipt);
    List<List<Receipt>> requests = requests(events, 10);
    Map<Integer, List<Receipt>> answered2xx = new ConcurrentHashMap<>();
    var refused = new AtomicInteger();
    var next = new AtomicInteger();
    var cut = new CountDownLatch(1);

    try (HttpServer server = HttpServer.start(
        new HttpServer.Options(0, new Secret(API_KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new DeliveryWebhookRoutes(
            new DeliveryWebhooks(
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()),
            () -> sink,
            1024 * 1024,
            InstantSource.system(),
            new SimpleMeterRegistry())))) {
      HttpClient client =
          HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      URI endpoint = URI.create("http://127.0.0.1:" + server.port() + "/api/v1/delivery-events");
      List<Future<?>> clients = new ArrayList<>();
      for (int c = 0; c < HTTP_CLIENTS; c++)
        clients.add(threads.submit(() -> {
          for (int i = next.getAndIncrement(); i < requests.size(); i = next.getAndIncrement()) {
            if (i >= requests.size() * 2 / 3) cut.await();
            DeliveryEventPosts.untilAccepted(
                client, endpoint, API_KEY, requests.get(i), SETTLE, refused);
            answered2xx.put(i, requests.get(i));
            Thread.sleep(PACE.toMillis() * HTTP_CLIENTS);
          }
          return null;
        }));
      Future<?> sender = threads.submit(new Publisher(sink, requests(sends, 50), cut));

      awaitUntil(
          "a sixth of the requests answered and some applied",
          () -> answered2xx.size() >= requests.size() / 6 && watched.batches() > 0);
      List<String> closed = RabbitNodeFaults.closeConnectionsFromTheBroker(queue);
      cut.countDown();
      assertThat(closed).as("the broker closed both connections of the node").hasSize(2);

      for (Future<?> c : clients) c.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
      sender.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
    }
    awaitDrained(queue, watched);
    consumers.close();

    System.err.printf(
        "DeliveryFaultsIT: %d requests answered 2xx, %d answers 503 while the queue recovered%n",
        answered2xx.size(), refused.get());
    assertThat(answered2xx).hasSize(requests.size());
    Map<String, Set<FunnelStep>> steps = stepsInPostgres();
    List<String> missing = new ArrayList<>();
    answered2xx.forEach((request, receipts) -> {
      for (Receipt receipt : receipts)
        if (!steps
            .getOrDefault(receipt.messageId(), Set.of())
            .contains(FunnelStep.of(receipt.status())))
          missing.add("request " + request + ": " + receipt.messageId() + " " + receipt.status());
    });
    assertThat(missing).as("receipts answered 2xx but not in PostgreSQL").isEmpty();
    // the generic API carries no slot, so only the statuses and the funnel compare
    assertTheOracle(false);
    assertNothingDeadLettered(queue);
  }

  private Map<String, Set<FunnelStep>> stepsInPostgres() {
    Map<String, Set<FunnelStep>> steps = new HashMap<>();
    database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT message_id, step FROM message_steps WHERE campaign_id = :c")
            .bind("c", campaign)
            .map((rs, ctx) -> Map.entry(rs.getString("message_id"), rs.getInt("step")))
            .list())
        .forEach(row -> FunnelStep.ofCode(row.getValue())
            .ifPresent(step ->
                steps.computeIfAbsent(row.getKey(), key -> new HashSet<>()).add(step)));
    return steps;
  }

  /** The funnel, the current-status counts, each message's status (and the slot clicks) as the oracle says. */
  private void assertTheOracle(boolean slots) {
    var stats = new DeliveryStats(database.jdbi());
    CampaignStats figures = stats.campaign(campaign, T0.minusSeconds(60));
    for (FunnelStep step : FunnelStep.values())
      assertThat(figures.count(step))
          .as("funnel %s", step)
          .isEqualTo(stories.funnel().getOrDefault(step, 0L));
    Map<DeliveryStatus, Long> current = new EnumMap<>(DeliveryStatus.class);
    stories.finalStatus().values().forEach(status -> current.merge(status, 1L, Long::sum));
    assertThat(figures.current()).as("current statuses").isEqualTo(current);
    if (slots) assertThat(figures.slotClicks()).as("slot clicks").isEqualTo(stories.slotClicks());
    for (var expected : stories.finalStatus().entrySet())
      assertThat(stats.message(expected.getKey()).orElseThrow().status())
          .as("status of %s", expected.getKey())
          .isEqualTo(expected.getValue());
  }

  private void assertNothingDeadLettered(RabbitWorkQueue queue) {
    assertThat(queue.deadLetters(topic.name(), 10)).as("dead letters").isEmpty();
  }

  /**
   * Until the funnel is the oracle's and nothing waits or is being handled, twice in a row: a
   * redelivered copy still on its way would otherwise be applied after the assertions.
   */
  private void awaitDrained(RabbitWorkQueue queue, Watched watched) {
    var stats = new DeliveryStats(database.jdbi());
    var quietBefore = new AtomicBoolean();
    awaitUntil("the queue drained into the oracle's funnel", () -> {
      boolean quiet = depth(queue) == 0
          && watched.inFlight() == 0
          && stats.campaign(campaign, T0.minusSeconds(60)).funnel().equals(stories.funnel());
      boolean twice = quiet && quietBefore.get();
      quietBefore.set(quiet);
      return twice;
    });
  }

  /** The queue's depth, or unknown while the node's connection recovers. */
  private long depth(RabbitWorkQueue queue) {
    try {
      return queue.depth(topic.name());
    } catch (QueueUnavailableException e) {
      return -1;
    }
  }

  /** Requests of 1 to {@code most} receipts, as the edges hand them to the sink. */
  private List<List<Receipt>> requests(List<Receipt> receipts, int most) {
    var random = new Random(campaign + most);
    List<List<Receipt>> requests = new ArrayList<>();
    for (int from = 0; from < receipts.size(); ) {
      int to = Math.min(receipts.size(), from + 1 + random.nextInt(most));
      requests.add(List.copyOf(receipts.subList(from, to)));
      from = to;
    }
    return requests;
  }

  private RabbitWorkQueue node() {
    RabbitWorkQueue node = RabbitWorkQueue.connect(
        RealServers.amqpUrl(),
        RabbitQueueOptions.defaults(),
        InstantSource.system(),
        new SimpleMeterRegistry());
    nodes.add(node);
    node.declare(topic.spec());
    return node;
  }

  private static Topic<ReceiptBatch> productionTopicNamed(String name) {
    QueueSpec production = ReceiptQueue.TOPIC.spec();
    return new Topic<>(
        new QueueSpec(
            name,
            production.maxPriority(),
            production.maxDeliveries(),
            production.visibilityTimeout(),
            production.handlerTimeout(),
            production.retry(),
            production.oldestEvery()),
        ReceiptQueue.TOPIC.codec());
  }

  private static void awaitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline)
        throw new AssertionError("not within " + SETTLE + ": " + what);
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
    }
  }

  /**
   * Hands requests to the sink at a steady pace; a request the queue cannot take now is handed again
   * after a pause, as a provider retries after a 503. Two thirds in, it waits for the fault, so that
   * the last third is published after it whatever the fault takes to inject.
   */
  private static final class Publisher implements Callable<Void> {
    private final ReceiptSink sink;
    private final List<List<Receipt>> requests;
    private final CountDownLatch fault;
    private final AtomicInteger published = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();

    Publisher(ReceiptSink sink, List<List<Receipt>> requests, CountDownLatch fault) {
      this.sink = sink;
      this.requests = requests;
      this.fault = fault;
    }

    @Override
    public Void call() throws InterruptedException {
      long deadline = System.nanoTime() + SETTLE.toNanos();
      for (int i = 0; i < requests.size(); i++) {
        if (i == requests.size() * 2 / 3) fault.await();
        List<Receipt> request = requests.get(i);
        while (true) {
          try {
            sink.accept(request);
            break;
          } catch (QueueUnavailableException e) {
            refused.incrementAndGet();
            if (System.nanoTime() > deadline)
              throw new AssertionError("the queue never took a request again", e);
            Thread.sleep(100);
          }
        }
        published.incrementAndGet();
        Thread.sleep(PACE.toMillis());
      }
      return null;
    }

    int requests() {
      return requests.size();
    }

    int published() {
      return published.get();
    }

    int refused() {
      return refused.get();
    }
  }

  /** The receipts' consumer as a node runs it, and what the test needs to see of its batches. */
  private static final class Watched implements Topic.BatchOf<ReceiptBatch> {
    private final Topic.BatchOf<ReceiptBatch> consumer;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger batches = new AtomicInteger();
    private final AtomicInteger failures = new AtomicInteger();
    private final Set<String> handledAgain = ConcurrentHashMap.newKeySet();

    Watched(Topic.BatchOf<ReceiptBatch> consumer) {
      this.consumer = consumer;
    }

    @Override
    public BatchResult handle(List<Topic.Received<ReceiptBatch>> batch) throws Exception {
      inFlight.incrementAndGet();
      try {
        BatchResult result = consumer.handle(batch);
        batches.incrementAndGet();
        for (Topic.Received<ReceiptBatch> received : batch)
          if (received.delivery().redelivered())
            handledAgain.add(received.delivery().messageId());
        return result;
      } catch (Exception e) {
        failures.incrementAndGet();
        throw e;
      } finally {
        inFlight.decrementAndGet();
      }
    }

    int inFlight() {
      return inFlight.get();
    }

    int batches() {
      return batches.get();
    }

    int failures() {
      return failures.get();
    }

    /** Queue messages applied on a delivery after the first. */
    Set<String> handledAgain() {
      return handledAgain;
    }
  }
}
