package dev.tidings.delivery.webhook;

import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.ReceiptSource;
import java.util.ArrayList;
import java.util.List;

/**
 * What one verified request's events became: receipts, and events that name no status we know or no
 * message of ours (kept apart and counted, never a failed batch).
 */
public record Mapped(List<Receipt> receipts, List<Unmapped> unmapped) {
  public Mapped {
    receipts = List.copyOf(receipts);
    unmapped = List.copyOf(unmapped);
  }

  /** An event kept as the provider sent it, with what it was called. */
  public record Unmapped(ReceiptSource source, String eventType, String rawEvent) {}

  /**
   * Hands everything to the sink, receipts first: when they cannot be queued the sink throws and the
   * provider retries the whole request, so the unknown ones are not counted twice.
   */
  public void handTo(ReceiptSink sink) {
    if (!receipts.isEmpty()) sink.accept(receipts);
    for (Unmapped event : unmapped)
      sink.unknown(event.source(), event.eventType(), event.rawEvent());
  }

  /** Collects a request's results in event order. */
  public static final class Builder {
    private final List<Receipt> receipts = new ArrayList<>();
    private final List<Unmapped> unmapped = new ArrayList<>();

    public Builder receipt(Receipt receipt) {
      receipts.add(receipt);
      return this;
    }

    public Builder unmapped(ReceiptSource source, String eventType, String rawEvent) {
      unmapped.add(new Unmapped(source, eventType, rawEvent));
      return this;
    }

    public Mapped build() {
      return new Mapped(receipts, unmapped);
    }
  }
}
