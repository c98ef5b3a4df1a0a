package dev.tidings.delivery;

import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Topic;
import dev.tidings.storage.Unreachable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the receipts of a batch of queue messages in one transaction and acknowledges them after
 * it commits. A redelivered message (a consumer died between commit and ack) changes nothing: every
 * count is of rows that were new. While PostgreSQL is out of reach the batch is held and tried again
 * here, up to {@code holdFor}: failing it instead would spend the queue's few deliveries on an outage
 * and send receipts to the dead-letter queue for no fault of their own.
 */
public final class ReceiptConsumer implements Topic.BatchOf<ReceiptBatch> {
  /** Below RabbitMQ's default consumer timeout (30 minutes), which would close the channel. */
  public static final Duration DEFAULT_HOLD = Duration.ofMinutes(10);

  private static final Logger log = LoggerFactory.getLogger(ReceiptConsumer.class);
  private static final Duration FIRST_WAIT = Duration.ofMillis(500);
  private static final Duration LONGEST_WAIT = Duration.ofSeconds(15);

  private final ReceiptStore store;
  private final Duration holdFor;
  private final AtomicLong heldAttempts = new AtomicLong();

  public ReceiptConsumer(ReceiptStore store) {
    this(store, DEFAULT_HOLD);
  }

  public ReceiptConsumer(ReceiptStore store, Duration holdFor) {
    this.store = store;
    this.holdFor = holdFor;
  }

  @Override
  public BatchResult handle(List<Topic.Received<ReceiptBatch>> batch) throws InterruptedException {
    List<Receipt> receipts = new ArrayList<>();
    List<ReceiptStore.Unknown> unknown = new ArrayList<>();
    for (Topic.Received<ReceiptBatch> received : batch) {
      receipts.addAll(received.value().receipts());
      unknown.addAll(received.value().unknown());
    }
    long giveUpAt = System.nanoTime() + holdFor.toNanos();
    Duration wait = FIRST_WAIT;
    while (true) {
      try {
        store.apply(receipts, unknown);
        return BatchResult.ACK_ALL;
      } catch (RuntimeException e) {
        if (!Unreachable.database(e) || System.nanoTime() + wait.toNanos() > giveUpAt) throw e;
        heldAttempts.incrementAndGet();
        log.warn(
            "PostgreSQL is out of reach ({}); holding {} receipts and trying again in {}",
            rootCause(e),
            receipts.size(),
            wait);
        Thread.sleep(wait);
        wait =
            wait.multipliedBy(2).compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait.multipliedBy(2);
      }
    }
  }

  /** The driver's own words, without the statement and its arguments that wrap them. */
  private static String rootCause(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    return String.valueOf(root.getMessage());
  }

  /** How often a batch was held for an unreachable database, for tests and metrics. */
  public long heldAttempts() {
    return heldAttempts.get();
  }
}
