package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import dev.tidings.delivery.CampaignStats;
import dev.tidings.delivery.DeliveryEventPosts;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptBatch;
import dev.tidings.delivery.ReceiptConsumer;
import dev.tidings.delivery.ReceiptQueue;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.ReceiptStore;
import dev.tidings.delivery.ReceiptStories;
import dev.tidings.delivery.webhook.DeliveryWebhooks;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.Topic;
import dev.tidings.queue.rabbitmq.RabbitQueueOptions;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.testing.PostgresStandbyPair;
import dev.tidings.testing.RealServers;
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
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Scenario 3b: receipts arrive over HTTP and are applied by the consumers while the PostgreSQL
 * primary is killed (SIGKILL) and its synchronous standby promoted. The consumers reach the
 * promoted standby through the multi-host URL and hold their receipts meanwhile; every receipt
 * answered 2xx is in PostgreSQL once, and the funnel is exactly the oracle's.
 */
@Timeout(180)
class PostgresPromotionReceiptsFaultIT {
  private static final Instant T0 = Instant.parse("2026-04-01T10:00:00Z");
  private static final int MESSAGES = 400;
  private static final int CONSUMERS = 4;
  private static final int MESSAGES_PER_TRANSACTION = 8;
  private static final int HTTP_CLIENTS = 6;
  private static final Duration SETTLE = Duration.ofSeconds(60);
  private static final Duration PACE = Duration.ofMillis(8);
  private static final String API_KEY = "promotion-receipts-key-0123456789";

  private final long campaign = 9_000_000 + System.nanoTime() % 1_000_000;
  private final ReceiptStories stories =
      ReceiptStories.generate(campaign, MESSAGES, T0, new Random(campaign));
  private final Topic<ReceiptBatch> topic =
      topicNamed("test.pg.promotion." + UUID.randomUUID().toString().substring(0, 8));

  @Test
  void every_receipt_answered_2xx_is_stored_once_across_a_promotion() throws Exception {
    RealServers.requireRabbitMq();
    try (var pair = PostgresStandbyPair.start(PostgresStandbyPair.Replication.SYNCHRONOUS);
        var database = Database.connect(
            new ConnectionSpec(
                pair.multiHostUrl(), Optional.empty(), Optional.empty(), "public", 8),
            () -> {},
            new SimpleMeterRegistry());
        var queue = RabbitWorkQueue.connect(
            RealServers.amqpUrl(),
            RabbitQueueOptions.defaults(),
            InstantSource.system(),
            new SimpleMeterRegistry());
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      database.migrate();
      queue.declare(topic.spec());
      var killedAt = new AtomicLong();
      // set once the primary is dead:
      // a batch begun after it can only have been written on the promoted standby
      var deadAt = new AtomicLong();
      var firstAppliedAfter = new AtomicLong();
      var inFlight = new AtomicInteger();
      var consumer = new ReceiptConsumer(
          new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry()));
      Topic.BatchOf<ReceiptBatch> watched = batch -> {
        inFlight.incrementAndGet();
        long begun = System.nanoTime();
        try {
          BatchResult result = consumer.handle(batch);
          long applied = System.nanoTime();
          if (deadAt.get() != 0 && begun > deadAt.get())
            firstAppliedAfter.compareAndSet(0, applied);
          return result;
        } finally {
          inFlight.decrementAndGet();
        }
      };
      Subscription consumers = queue.subscribeBatches(
          topic.name(), CONSUMERS, MESSAGES_PER_TRANSACTION, topic.batchHandler(watched));
      var sink = new ReceiptQueue(queue, topic);
      List<Receipt> sends = new ArrayList<>();
      List<Receipt> events = new ArrayList<>();
      for (Receipt receipt : stories.receipts())
        (receipt.source() == ReceiptSource.SMTP ? sends : events).add(receipt);
      List<List<Receipt>> requests = requests(events, 10);
      List<List<Receipt>> sendRequests = requests(sends, 50);
      List<Receipt> answered2xx = Collections.synchronizedList(new ArrayList<>());
      var next = new AtomicInteger();
      var refused = new AtomicInteger();

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
              DeliveryEventPosts.untilAccepted(
                  client, endpoint, API_KEY, requests.get(i), SETTLE, refused);
              answered2xx.addAll(requests.get(i));
              Thread.sleep(PACE.toMillis() * HTTP_CLIENTS);
            }
            return null;
          }));
        Future<?> sender = threads.submit(() -> {
          for (List<Receipt> request : sendRequests) {
            publishUntilTaken(sink, request);
            Thread.sleep(PACE.toMillis());
          }
          return null;
        });

        awaitUntil("a third of the requests answered", () -> next.get() >= requests.size() / 3);
        killedAt.set(System.nanoTime());
        pair.killPrimary();
        deadAt.set(System.nanoTime());
        pair.promoteStandby();
        long promotedAt = System.nanoTime();
        for (Future<?> c : clients) c.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
        sender.get(SETTLE.toSeconds(), TimeUnit.SECONDS);

        var stats = new DeliveryStats(database.jdbi());
        var quietBefore = new AtomicBoolean();
        awaitUntil("the receipts drained into the oracle's funnel", () -> {
          boolean quiet;
          try {
            quiet = depth(queue) == 0
                && inFlight.get() == 0
                && stats.campaign(campaign, T0.minusSeconds(60)).funnel().equals(stories.funnel());
          } catch (RuntimeException stillFailingOver) {
            quiet = false;
          }
          boolean twice = quiet && quietBefore.get();
          quietBefore.set(quiet);
          return twice;
        });
        consumers.close();

        assertThat(firstAppliedAfter.get())
            .as("a batch begun after the kill was applied")
            .isPositive();
        Duration recovery = Duration.ofNanos(firstAppliedAfter.get() - killedAt.get());
        Duration promotion = Duration.ofNanos(promotedAt - killedAt.get());

        List<String> acknowledged = answered2xx.stream()
            .map(r -> key(r.messageId(), FunnelStep.of(r.status())))
            .toList();
        // the rows of what was acknowledged (the sends' own steps are stored too,
        // and not counted here)
        var told = new HashSet<>(acknowledged);
        List<String> stored =
            storedSteps(database).stream().filter(told::contains).toList();
        Tally tally = Tally.of(acknowledged, stored);
        CampaignStats figures = stats.campaign(campaign, T0.minusSeconds(60));
        long overCounted = 0;
        for (FunnelStep step : FunnelStep.values())
          overCounted += Math.max(0, figures.count(step) - stories.funnel().getOrDefault(step, 0L));
        FaultReport.recordAndCheck(new FaultReport.Outcome(
            "3b PostgreSQL primary killed, standby promoted, during receipts",
            "PostgreSQL primary + synchronous streaming standby (multi-host URL), RabbitMQ",
            tally.acknowledged(),
            tally.stored(),
            tally.lost(),
            tally.duplicated() + overCounted,
            0,
            recovery,
            "promotion took " + promotion.toMillis() + " ms; " + refused.get()
                + " HTTP answers were 503 or dropped and retried; funnel "
                + (overCounted == 0 ? "exact" : "over-counted by " + overCounted)));
        for (FunnelStep step : FunnelStep.values())
          assertThat(figures.count(step))
              .as("funnel %s", step)
              .isEqualTo(stories.funnel().getOrDefault(step, 0L));
        assertThat(queue.deadLetters(topic.name(), 10)).as("dead letters").isEmpty();
      } finally {
        consumers.close();
        queue.delete(topic.name());
      }
    }
  }

  private static String key(String messageId, FunnelStep step) {
    return messageId + " " + step;
  }

  /** One entry per (message, step) row: the table keeps a step once, so a repeat shows as a second row only if it failed to. */
  private List<String> storedSteps(Database database) {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT message_id, step FROM message_steps WHERE campaign_id = :c")
            .bind("c", campaign)
            .map((rs, ctx) -> {
              String messageId = rs.getString("message_id");
              int code = rs.getInt("step");
              return FunnelStep.ofCode(code)
                  .map(step -> key(messageId, step))
                  .orElse(messageId + " step " + code);
            })
            .list());
  }

  private static void publishUntilTaken(ReceiptQueue sink, List<Receipt> request)
      throws InterruptedException {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (true) {
      try {
        sink.accept(request);
        return;
      } catch (QueueUnavailableException e) {
        if (System.nanoTime() > deadline) throw new AssertionError("the queue never took it", e);
        Thread.sleep(100);
      }
    }
  }

  private long depth(RabbitWorkQueue queue) {
    try {
      return queue.depth(topic.name());
    } catch (QueueUnavailableException e) {
      return -1;
    }
  }

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

  private static Topic<ReceiptBatch> topicNamed(String name) {
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
}
