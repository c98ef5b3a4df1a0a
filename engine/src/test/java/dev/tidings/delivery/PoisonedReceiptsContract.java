package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.tidings.message.MessageId;
import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.PoisonIsolation;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.RetryPolicy;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * One request's thousand receipts reach the queue with one the store cannot hold (published
 * straight to the queue, past the edge's checks): the other 999 are applied, the bad one ends as a
 * dead letter of its own with its reason, logged at WARN and counted. On every queue adapter.
 */
@Timeout(240)
public abstract class PoisonedReceiptsContract {
  private static final int RECEIPTS = 1_000;
  private static final int POISONED = 517;

  /** A queue on the adapter under test that counts in {@code metrics}. */
  protected abstract WorkQueue openQueue(MeterRegistry metrics);

  /** The database receipts are applied to; the suite does not close it. */
  protected abstract Database database();

  private final MeterRegistry metrics = new SimpleMeterRegistry();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger isolationLog = (Logger) LoggerFactory.getLogger(PoisonIsolation.class);
  private WorkQueue queue;
  private Topic<ReceiptBatch> topic;

  @BeforeEach
  void openQueueAndListen() {
    logged.start();
    isolationLog.addAppender(logged);
    queue = openQueue(metrics);
    topic = new Topic<>(
        new QueueSpec(
            "test.poisoned-receipts." + UUID.randomUUID().toString().substring(0, 8),
            QueueSpec.MAX_PRIORITY,
            5,
            Duration.ofSeconds(30),
            Duration.ofSeconds(120),
            RetryPolicy.IMMEDIATE,
            QueueSpec.DEFAULT_OLDEST_EVERY),
        ReceiptQueue.TOPIC.codec());
  }

  @AfterEach
  void closeQueue() {
    isolationLog.detachAppender(logged);
    try {
      queue.delete(topic.name());
    } finally {
      queue.close();
    }
  }

  @Test
  void a_receipt_dated_past_postgresqls_range_is_dead_lettered_alone_and_the_other_999_applied()
      throws Exception {
    poisonedBatchIsIsolated(
        receipt -> new Receipt(
            receipt.messageId(),
            receipt.status(),
            Instant.parse("+300000-01-01T00:00:00Z"),
            receipt.source(),
            receipt.reason(),
            receipt.userAgent(),
            receipt.sourceAddress(),
            false,
            receipt.eventId(),
            receipt.slot()),
        "out of range");
  }

  @Test
  void a_receipt_with_a_nul_character_is_dead_lettered_alone_and_the_other_999_applied()
      throws Exception {
    poisonedBatchIsIsolated(
        receipt -> new Receipt(
            receipt.messageId(),
            receipt.status(),
            receipt.at(),
            receipt.source(),
            Optional.of("250 ok\u0000 queued"),
            receipt.userAgent(),
            receipt.sourceAddress(),
            false,
            receipt.eventId(),
            receipt.slot()),
        "0x00",
        "Zero bytes");
  }

  private void poisonedBatchIsIsolated(UnaryOperator<Receipt> poison, String... reasonMentions)
      throws Exception {
    long campaign = 8_000_000 + System.nanoTime() % 1_000_000;
    Instant sent = Instant.now().minusSeconds(3_600);
    var store =
        new ReceiptStore(database().jdbi(), InstantSource.system(), new SimpleMeterRegistry());
    List<String> messages = new ArrayList<>();
    List<Receipt> sends = new ArrayList<>();
    List<Receipt> delivered = new ArrayList<>();
    for (int i = 0; i < RECEIPTS; i++) {
      String message = new MessageId(campaign, 1, "p" + i).text();
      messages.add(message);
      sends.add(Receipt.of(message, DeliveryStatus.SENT, sent, ReceiptSource.SMTP));
      Receipt receipt =
          Receipt.of(message, DeliveryStatus.DELIVERED, sent.plusSeconds(2), ReceiptSource.API);
      delivered.add(i == POISONED ? poison.apply(receipt) : receipt);
    }
    store.apply(sends, List.of());

    var sink = new ReceiptQueue(queue, topic);
    var consumer = new ReceiptConsumer(store, Duration.ofSeconds(5), sink::setAside);
    Subscription consuming =
        queue.subscribeBatches(topic.name(), 1, 8, topic.batchHandler(consumer));
    try {
      topic.publish(queue, new ReceiptBatch(delivered, List.of()), 1);

      var stats = new DeliveryStats(database().jdbi());
      long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
      List<DeadLetter> dead = List.of();
      while (System.nanoTime() < deadline) {
        dead = queue.deadLetters(topic.name(), 10);
        if (!dead.isEmpty() && queue.depth(topic.name()) == 0) break;
        Thread.sleep(200);
      }
      assertThat(dead).as("dead letters").hasSize(1);
      DeadLetter deadLetter = dead.getFirst();
      ReceiptBatch letter = topic.codec().decode(dead.getFirst().body());
      assertThat(letter.receipts())
          .singleElement()
          .satisfies(receipt -> assertThat(receipt.messageId()).isEqualTo(messages.get(POISONED)));
      assertThat(dead.getFirst().reason()).containsAnyOf(reasonMentions);
      for (int i = 0; i < RECEIPTS; i++) {
        DeliveryStatus status = stats.message(messages.get(i)).orElseThrow().status();
        assertThat(status)
            .as("status of message %d", i)
            .isEqualTo(i == POISONED ? DeliveryStatus.SENT : DeliveryStatus.DELIVERED);
      }
      Counter counted =
          metrics.find(PoisonIsolation.METRIC).tags("queue", topic.name()).counter();
      assertThat(counted).isNotNull();
      assertThat(counted.count()).isEqualTo(1.0);
      assertThat(logged.list)
          .filteredOn(event -> event.getLevel() == Level.WARN)
          .singleElement()
          .satisfies(event -> {
            assertThat(event.getFormattedMessage())
                .contains(deadLetter.messageId())
                .contains(topic.name())
                .containsAnyOf(reasonMentions)
                .doesNotContain(new String(deadLetter.body(), StandardCharsets.UTF_8));
          });
    } finally {
      consuming.close();
    }
  }
}
