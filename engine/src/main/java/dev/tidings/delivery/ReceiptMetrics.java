package dev.tidings.delivery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What the receipt store applied, for Prometheus (each registered at 0): {@code
 * tidings_receipts_total{status}}, the receipts taken by status (a batch the queue delivers again
 * counts again); {@code tidings_receipts_new_steps_total}, funnel steps that were new; {@code
 * tidings_receipts_parked_total} and {@code _unparked_total}, receipts that came before their
 * message's send record and were kept waiting, then found it; {@code _undecodable_total}, receipts
 * naming no message of ours; {@code tidings_receipts_unknown_events_total}, provider events that map
 * to no status.
 */
final class ReceiptMetrics {
  static final String RECEIPTS = "tidings_receipts";

  private final Map<DeliveryStatus, Counter> byStatus = new EnumMap<>(DeliveryStatus.class);
  private final Counter newSteps;
  private final Counter parked;
  private final Counter unparked;
  private final Counter undecodable;
  private final Counter unknown;

  ReceiptMetrics(MeterRegistry registry) {
    for (DeliveryStatus status : DeliveryStatus.values())
      byStatus.put(
          status,
          Counter.builder(RECEIPTS)
              .description("Delivery receipts taken by the store, by status")
              .tag("status", status.name().toLowerCase(Locale.ROOT))
              .register(registry));
    newSteps =
        counter(registry, "tidings_receipts_new_steps", "Funnel steps the receipts made new");
    parked = counter(
        registry, "tidings_receipts_parked", "Receipts kept until their message's send record");
    unparked = counter(
        registry, "tidings_receipts_unparked", "Kept receipts applied once their message arrived");
    undecodable = counter(
        registry, "tidings_receipts_undecodable", "Receipts naming no message of this Tidings");
    unknown = counter(
        registry, "tidings_receipts_unknown_events", "Provider events that map to no status");
  }

  private static Counter counter(MeterRegistry registry, String name, String description) {
    return Counter.builder(name).description(description).register(registry);
  }

  void applied(List<Receipt> receipts, int unknownEvents, ReceiptStore.Applied applied) {
    for (Receipt receipt : receipts)
      Objects.requireNonNull(byStatus.get(receipt.status())).increment();
    newSteps.increment(applied.newSteps());
    parked.increment(applied.parked());
    unparked.increment(applied.unparked());
    undecodable.increment(applied.undecodable());
    unknown.increment(unknownEvents);
  }
}
