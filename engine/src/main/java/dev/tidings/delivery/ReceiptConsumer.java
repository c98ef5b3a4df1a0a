package dev.tidings.delivery;

import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Topic;
import dev.tidings.queue.TransientFailure;
import dev.tidings.storage.Unreachable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the receipts of a batch of queue messages in one transaction and acknowledges them after
 * it commits. A redelivered message (a consumer died between commit and ack) changes nothing: every
 * count is of rows that were new. While PostgreSQL is out of reach the batch is held and tried again
 * here, up to {@code holdFor}: failing it instead would spend the queue's few deliveries on an outage
 * and send receipts to the dead-letter queue for no fault of their own.
 *
 * <p>A batch that fails for any other reason holds a receipt the store cannot take (a time out of
 * PostgreSQL's range, a NUL character: what the edges refuse, come by another way). One message
 * carries up to a thousand receipts of one request, so isolating whole messages (as the queue does,
 * {@link dev.tidings.queue.PoisonIsolation}) would still lose the good receipts of that request.
 * The receipts are therefore split, each half applied in a transaction of its own, until every one
 * that fails is alone; the others are applied. A message whose every receipt failed is rejected
 * (dead-lettered with the reason); a message with good and bad receipts is acknowledged and its bad
 * ones are set aside: published again as a message of their own, which then fails alone and is
 * dead-lettered with its reason by the queue, logged and counted there. Without a way to set them
 * aside (a consumer built for a test or a benchmark), such a message is rejected after its good
 * receipts are applied; a dead letter's receipts may be applied again at no cost.
 */
public final class ReceiptConsumer implements Topic.BatchOf<ReceiptBatch> {
  /** Below RabbitMQ's default consumer timeout (30 minutes), which would close the channel. */
  public static final Duration DEFAULT_HOLD = Duration.ofMinutes(10);

  private static final Logger log = LoggerFactory.getLogger(ReceiptConsumer.class);
  private static final Duration FIRST_WAIT = Duration.ofMillis(500);
  private static final Duration LONGEST_WAIT = Duration.ofSeconds(15);
  private static final int MAX_REASON = 500;

  private final ReceiptStore store;
  private final Duration holdFor;
  private final @Nullable Consumer<ReceiptBatch> setAside;
  private final AtomicLong heldAttempts = new AtomicLong();

  public ReceiptConsumer(ReceiptStore store) {
    this(store, DEFAULT_HOLD);
  }

  public ReceiptConsumer(ReceiptStore store, Duration holdFor) {
    this.store = store;
    this.holdFor = holdFor;
    this.setAside = null;
  }

  /**
   * Sets the receipts that fail aside through {@code setAside} (which publishes them to the queue as
   * a message of their own) instead of rejecting the message that carried them with good ones.
   */
  public ReceiptConsumer(ReceiptStore store, Duration holdFor, Consumer<ReceiptBatch> setAside) {
    this.store = store;
    this.holdFor = holdFor;
    this.setAside = setAside;
  }

  /**
   * One receipt or unknown event, with the index of the message in the batch that carried it and
   * its own position there (a batch may carry equal receipts).
   */
  private record Item(
      int message,
      int position,
      @Nullable Receipt receipt,
      ReceiptStore.@Nullable Unknown unknown) {}

  @Override
  public BatchResult handle(List<Topic.Received<ReceiptBatch>> batch) throws InterruptedException {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      for (Receipt receipt : batch.get(i).value().receipts())
        items.add(new Item(i, items.size(), receipt, null));
      for (ReceiptStore.Unknown event : batch.get(i).value().unknown())
        items.add(new Item(i, items.size(), null, event));
    }
    try {
      apply(items);
      return BatchResult.ACK_ALL;
    } catch (RuntimeException e) {
      if (TransientFailure.is(e) || items.size() < 2) throw e;
    }
    Map<Item, String> refused = new LinkedHashMap<>();
    isolate(items, refused);
    return settle(batch, items, refused);
  }

  /** Applies {@code items} in one transaction, holding them while PostgreSQL is out of reach. */
  private void apply(List<Item> items) throws InterruptedException {
    List<Receipt> receipts = new ArrayList<>();
    List<ReceiptStore.Unknown> unknown = new ArrayList<>();
    split(items, receipts, unknown);
    long giveUpAt = System.nanoTime() + holdFor.toNanos();
    Duration wait = FIRST_WAIT;
    while (true) {
      try {
        store.apply(receipts, unknown);
        return;
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

  /** Applies what can be applied of {@code items}, halving what fails; the ones failing alone go to {@code refused}. */
  private void isolate(List<Item> items, Map<Item, String> refused) throws InterruptedException {
    try {
      apply(items);
    } catch (RuntimeException e) {
      if (TransientFailure.is(e) || Thread.currentThread().isInterrupted()) throw e;
      if (items.size() == 1) {
        refused.put(items.getFirst(), rootCause(e));
        return;
      }
      int half = items.size() / 2;
      isolate(items.subList(0, half), refused);
      isolate(items.subList(half, items.size()), refused);
    }
  }

  private BatchResult settle(
      List<Topic.Received<ReceiptBatch>> batch, List<Item> items, Map<Item, String> refused) {
    Map<Integer, Integer> itemsOf = new HashMap<>();
    for (Item item : items) itemsOf.merge(item.message(), 1, Integer::sum);
    Map<Integer, List<Item>> refusedOf = new LinkedHashMap<>();
    for (Item item : refused.keySet())
      refusedOf.computeIfAbsent(item.message(), unused -> new ArrayList<>()).add(item);
    Map<String, Disposition> exceptions = new HashMap<>();
    for (var entry : refusedOf.entrySet()) {
      String queueMessage = batch.get(entry.getKey()).delivery().messageId();
      List<Item> bad = entry.getValue();
      int carried = itemsOf.getOrDefault(entry.getKey(), 0);
      Item first = bad.getFirst();
      String reason = bad.size() + " of " + carried + " receipts failed, " + describe(first) + ": "
          + refused.getOrDefault(first, "");
      Consumer<ReceiptBatch> setAside = this.setAside;
      if (setAside == null || bad.size() == carried) {
        exceptions.put(queueMessage, Disposition.reject(reason));
        continue;
      }
      List<Receipt> receipts = new ArrayList<>();
      List<ReceiptStore.Unknown> unknown = new ArrayList<>();
      split(bad, receipts, unknown);
      setAside.accept(new ReceiptBatch(receipts, unknown));
      log.warn(
          "setting aside {} receipt(s) of queue message {} that fail alone ({}); the other {} are"
              + " applied, the set-aside ones go to the dead letters on their own",
          bad.size(),
          queueMessage,
          reason,
          carried - bad.size());
    }
    return BatchResult.except(exceptions);
  }

  private static void split(
      List<Item> items, List<Receipt> receipts, List<ReceiptStore.Unknown> unknown) {
    for (Item item : items) {
      Receipt receipt = item.receipt();
      ReceiptStore.Unknown event = item.unknown();
      if (receipt != null) receipts.add(receipt);
      if (event != null) unknown.add(event);
    }
  }

  /** Which receipt, by what names it and nothing of its contents. */
  private static String describe(Item item) {
    Receipt receipt = item.receipt();
    ReceiptStore.Unknown event = item.unknown();
    if (receipt != null)
      return "first: " + receipt.status().wire() + " of message " + bounded(receipt.messageId());
    if (event != null) return "first: an unknown " + event.source() + " event";
    return "first: nothing";
  }

  private static String bounded(String text) {
    String clean = text.replace('\u0000', '?');
    return clean.length() > 200 ? clean.substring(0, 200) + "..." : clean;
  }

  /** The driver's own words, without the statement and its arguments that wrap them. */
  private static String rootCause(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String words = String.valueOf(root.getMessage()).replace('\u0000', '?').replaceAll("\\s+", " ");
    return words.length() > MAX_REASON ? words.substring(0, MAX_REASON) + "..." : words;
  }

  /** How often a batch was held for an unreachable database, for tests and metrics. */
  public long heldAttempts() {
    return heldAttempts.get();
  }
}
