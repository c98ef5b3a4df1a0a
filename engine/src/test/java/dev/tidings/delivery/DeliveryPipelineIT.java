package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.rabbitmq.RabbitQueueOptions;
import dev.tidings.queue.rabbitmq.RabbitWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Receipts through the real RabbitMQ into the real PostgreSQL: published by the sink in requests of
 * varying size, applied by four concurrent consumers; the funnel and statuses equal the oracle's.
 */
@Timeout(180)
class DeliveryPipelineIT {
  private static final Instant T0 = Instant.parse("2026-04-01T10:00:00Z");

  @Test
  void repeated_shuffled_receipts_through_rabbitmq_on_four_consumers_give_the_oracles_funnel()
      throws Exception {
    RealServers.requireRabbitMq();
    RealServers.requirePostgres();
    long campaign = 7_000_000 + System.nanoTime() % 1_000_000;
    var topic =
        new Topic<>(QueueSpec.of("test.delivery.receipts." + campaign), ReceiptQueue.TOPIC.codec());
    var stories = ReceiptStories.generate(campaign, 800, T0, new Random(campaign));
    try (Database database = TestDatabases.real();
        WorkQueue queue = RabbitWorkQueue.connect(
            RealServers.amqpUrl(),
            RabbitQueueOptions.defaults(),
            InstantSource.system(),
            new SimpleMeterRegistry())) {
      var store =
          new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry());
      var sink = new ReceiptQueue(queue, topic);
      Subscription consumers = queue.subscribeBatches(
          topic.name(), 4, 8, topic.batchHandler(new ReceiptConsumer(store)));
      try {
        var random = new Random(campaign + 1);
        List<Receipt> receipts = stories.receipts();
        for (int from = 0; from < receipts.size(); ) {
          int size = 1 + random.nextInt(120);
          sink.accept(receipts.subList(from, Math.min(receipts.size(), from + size)));
          from += size;
        }
        var stats = new DeliveryStats(database.jdbi());
        long expectedSent = stories.funnel().get(FunnelStep.SENT);
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        CampaignStats figures = stats.campaign(campaign, T0.minusSeconds(60));
        while (!figures.funnel().equals(stories.funnel()) && System.nanoTime() < deadline) {
          Thread.sleep(200);
          figures = stats.campaign(campaign, T0.minusSeconds(60));
        }
        for (FunnelStep step : FunnelStep.values())
          assertThat(figures.count(step))
              .as("funnel %s", step)
              .isEqualTo(stories.funnel().getOrDefault(step, 0L));
        assertThat(figures.count(FunnelStep.SENT)).isEqualTo(expectedSent);
        assertThat(figures.slotClicks()).isEqualTo(stories.slotClicks());
        for (var expected : stories.finalStatus().entrySet())
          assertThat(stats.message(expected.getKey()).orElseThrow().status())
              .as("status of %s", expected.getKey())
              .isEqualTo(expected.getValue());
      } finally {
        consumers.close();
        queue.delete(topic.name());
      }
    }
  }
}
