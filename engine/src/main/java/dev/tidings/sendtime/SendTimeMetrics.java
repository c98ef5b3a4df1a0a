package dev.tidings.sendtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code tidings_send_time_planned_total{source}}: recipients planned at their own hour, by what the
 * hour rests on (history, time_zone, audience); {@code tidings_send_time_held_out_total}: recipients
 * held out and sent at once, the control. Every label registered at 0.
 */
public final class SendTimeMetrics {
  static final String PLANNED = "tidings_send_time_planned";
  static final String HELD_OUT = "tidings_send_time_held_out";

  private final Counter[] planned = new Counter[Source.values().length];
  private final Counter heldOut;

  public SendTimeMetrics(MeterRegistry registry) {
    for (Source source : Source.values())
      planned[source.ordinal()] = Counter.builder(PLANNED)
          .description("Recipients planned at their own send time, by what it rests on")
          .tag("source", source.name())
          .register(registry);
    this.heldOut = Counter.builder(HELD_OUT)
        .description("Recipients of per-subscriber campaigns held out and sent at once")
        .register(registry);
  }

  void count(SendTimePlanner.Slot slot) {
    if (slot.heldOut()) heldOut.increment();
    else planned[slot.source().ordinal()].increment();
  }
}
