package dev.tidings.campaign.send;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the send consumers do, for Prometheus: {@code tidings_send_emails_total{outcome}} (sent,
 * deferred for each 4xx answer, failed, unknown, skipped), every outcome registered at 0 so an alert
 * can compare them from the start; {@code tidings_send_partitions_in_flight}, the partitions this
 * node is working on now.
 */
final class SendMetrics {
  static final String EMAILS = "tidings_send_emails";
  static final String IN_FLIGHT = "tidings_send_partitions_in_flight";

  private final Map<SendReceipt.Status, Counter> emails = new EnumMap<>(SendReceipt.Status.class);
  private final AtomicInteger inFlight = new AtomicInteger();

  SendMetrics(MeterRegistry registry) {
    for (SendReceipt.Status status : SendReceipt.Status.values())
      emails.put(
          status,
          Counter.builder(EMAILS)
              .description("Campaign emails by send outcome (deferred: each 4xx answer)")
              .tag("outcome", status.name().toLowerCase(Locale.ROOT))
              .register(registry));
    Gauge.builder(IN_FLIGHT, inFlight, AtomicInteger::get)
        .description("Partitions of campaign runs this node is sending now")
        .register(registry);
  }

  void reported(List<SendReceipt> receipts) {
    for (SendReceipt receipt : receipts)
      java.util.Objects.requireNonNull(emails.get(receipt.status())).increment();
  }

  void partitionStarted() {
    inFlight.incrementAndGet();
  }

  void partitionEnded() {
    inFlight.decrementAndGet();
  }
}
