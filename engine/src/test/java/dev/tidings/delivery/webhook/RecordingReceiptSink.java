package dev.tidings.delivery.webhook;

import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.queue.QueueUnavailableException;
import java.util.ArrayList;
import java.util.List;

/** A test double of the delivery pipeline's port: keeps what it is handed, or refuses like a full queue. */
public final class RecordingReceiptSink implements ReceiptSink {
  public record Unknown(ReceiptSource source, String eventType, String rawEvent) {}

  private final List<Receipt> receipts = new ArrayList<>();
  private final List<Unknown> unknown = new ArrayList<>();
  private volatile boolean queueDown;

  @Override
  public synchronized void accept(List<Receipt> batch) {
    if (queueDown) throw new QueueUnavailableException("the test queue is down");
    receipts.addAll(batch);
  }

  @Override
  public synchronized void unknown(ReceiptSource source, String eventType, String rawEvent) {
    unknown.add(new Unknown(source, eventType, rawEvent));
  }

  public void queueDown(boolean down) {
    queueDown = down;
  }

  public synchronized List<Receipt> receipts() {
    return List.copyOf(receipts);
  }

  public synchronized List<Unknown> unknown() {
    return List.copyOf(unknown);
  }

  public synchronized boolean isEmpty() {
    return receipts.isEmpty() && unknown.isEmpty();
  }

  public synchronized void clear() {
    receipts.clear();
    unknown.clear();
  }
}
