package dev.tidings.delivery;

import dev.tidings.opentime.Engagement;
import dev.tidings.opentime.Engagements;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The open pixel, slot images and slot links as receipts: an image or the pixel is an open, a slot
 * link a click, each with the user agent and address class that tell people from machines.
 */
public final class EngagementReceipts implements Topic.BatchOf<Engagements> {
  private final ReceiptStore store;

  public EngagementReceipts(ReceiptStore store) {
    this.store = store;
  }

  @Override
  public BatchResult handle(List<Topic.Received<Engagements>> batch) {
    List<Receipt> receipts = new ArrayList<>();
    for (Topic.Received<Engagements> received : batch)
      for (Engagement engagement : received.value().items()) receipts.add(receipt(engagement));
    store.apply(receipts, List.of());
    return BatchResult.ACK_ALL;
  }

  static Receipt receipt(Engagement engagement) {
    boolean click = engagement.kind() == Engagement.Kind.SLOT_CLICK;
    return new Receipt(
        engagement.messageId(),
        click ? DeliveryStatus.CLICKED : DeliveryStatus.OPENED,
        engagement.at(),
        click ? ReceiptSource.CLICK : ReceiptSource.PIXEL,
        Optional.empty(),
        Optional.of(engagement.userAgent()),
        Optional.of(engagement.source().name().toLowerCase(Locale.ROOT)),
        false,
        Optional.empty(),
        engagement.slot());
  }
}
