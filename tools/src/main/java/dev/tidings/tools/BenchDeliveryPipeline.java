package dev.tidings.tools;

import dev.tidings.app.DeliveryWiring;
import dev.tidings.bench.DeliveryBench;
import dev.tidings.config.Secret;
import dev.tidings.config.WebhookSettings;
import dev.tidings.delivery.ReceiptBatch;
import dev.tidings.delivery.ReceiptConsumer;
import dev.tidings.delivery.ReceiptQueue;
import dev.tidings.delivery.ReceiptStore;
import dev.tidings.delivery.webhook.DeliveryWebhooks;
import dev.tidings.events.EventOutbox;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.web.HttpServer;
import dev.tidings.web.delivery.DeliveryWebhookRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The delivery pipeline of a node for the end-to-end bench: the node's HTTP server with the
 * delivery-events route, a {@link ReceiptQueue} and {@link ReceiptConsumer}s taking as many queue
 * messages per transaction as a node's do. The queue has a name of its own, so that a node running
 * beside the bench on the same broker neither takes its receipts nor hands it its own; it is deleted
 * on close.
 */
final class BenchDeliveryPipeline implements DeliveryBench.Pipeline {
  private final WorkQueue queue;
  private final String queueName;
  private final String describe;
  private final HttpServer server;
  private final Subscription consumers;
  private final Secret apiKey;
  private final AtomicLong applied;

  private BenchDeliveryPipeline(
      WorkQueue queue,
      String queueName,
      String describe,
      HttpServer server,
      Subscription consumers,
      Secret apiKey,
      AtomicLong applied) {
    this.queue = queue;
    this.queueName = queueName;
    this.describe = describe;
    this.server = server;
    this.consumers = consumers;
    this.apiKey = apiKey;
    this.applied = applied;
  }

  static BenchDeliveryPipeline start(
      Database database, Optional<URI> amqpUrl, int consumerCount, long maxBodyBytes) {
    WorkQueue queue = amqpUrl
        .map(ThrowawayQueues::rabbitMq)
        .orElseGet(() -> ThrowawayQueues.queueTables(database));
    String describe = amqpUrl.isPresent() ? "RabbitMQ " + amqpUrl.get().getHost() : "queue tables";
    var topic = new Topic<>(
        QueueSpec.of("delivery.receipts.bench-" + UUID.randomUUID().toString().substring(0, 8)),
        ReceiptQueue.TOPIC.codec());
    try {
      var sink = new ReceiptQueue(queue, topic);
      var consumer = new ReceiptConsumer(new ReceiptStore(
          database.jdbi(), InstantSource.system(), EventOutbox.ON, new SimpleMeterRegistry()));
      var applied = new AtomicLong();
      Topic.BatchOf<ReceiptBatch> counting = batch -> {
        var result = consumer.handle(batch);
        long receipts = 0;
        for (var received : batch) receipts += received.value().receipts().size();
        applied.addAndGet(receipts);
        return result;
      };
      Subscription consumers = queue.subscribeBatches(
          topic.name(),
          consumerCount,
          DeliveryWiring.MESSAGES_PER_TRANSACTION,
          topic.batchHandler(counting));
      var apiKey = new Secret(UUID.randomUUID().toString());
      var webhooks =
          DeliveryWebhooks.configured(WebhookSettings.none(), InstantSource.system(), () -> {
            throw new IllegalStateException("no webhook is configured in the bench");
          });
      HttpServer server;
      try {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        server = HttpServer.start(
            new HttpServer.Options(0, apiKey, Duration.ofSeconds(1)),
            registry,
            List.of(),
            List.of(new DeliveryWebhookRoutes(
                webhooks, () -> sink, maxBodyBytes, InstantSource.system(), registry)));
      } catch (RuntimeException e) {
        consumers.close();
        throw e;
      }
      return new BenchDeliveryPipeline(
          queue, topic.name(), describe, server, consumers, apiKey, applied);
    } catch (RuntimeException e) {
      queue.close();
      throw e;
    }
  }

  @Override
  public int port() {
    return server.port();
  }

  @Override
  public String apiKey() {
    return apiKey.value();
  }

  @Override
  public String queue() {
    return describe;
  }

  @Override
  public long applied() {
    return applied.get();
  }

  @Override
  public long deadLetters() {
    return queue.deadLetters(queueName, 1).size();
  }

  @Override
  public void close() {
    try {
      server.close();
      consumers.close();
      queue.delete(queueName);
    } finally {
      queue.close();
    }
  }
}
