package dev.tidings.journeys;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * What journeys do, counted with bounded labels (trigger kind, step outcome, exit reason, the limit
 * that held a send back), so an alert fires before a reader or a shop notices.
 */
public final class JourneyMetrics {
  public static final String ENTRIES = "tidings_journey_entries_total";
  public static final String REFUSED = "tidings_journey_entries_refused_total";
  public static final String STEPS = "tidings_journey_steps_total";
  public static final String LATENESS = "tidings_journey_step_lateness_seconds";
  public static final String EXITS = "tidings_journey_exits_total";
  public static final String HELD_BACK = "tidings_journey_sends_held_back_total";
  public static final String OVERDUE = "tidings_journey_overdue_total";

  /** What a look at a person did. */
  public enum Outcome {
    WAITING,
    SENT,
    HELD_OUT,
    HELD_BACK,
    FAILED
  }

  private final MeterRegistry registry;
  private final Counter[] steps = new Counter[Outcome.values().length];
  private final Timer lateness;
  private final Counter overdue;

  public JourneyMetrics(MeterRegistry registry) {
    this.registry = registry;
    for (Outcome outcome : Outcome.values())
      steps[outcome.ordinal()] = Counter.builder(STEPS)
          .description("Looks at a person that was due, by what they did")
          .tag("outcome", outcome.name().toLowerCase(java.util.Locale.ROOT))
          .register(registry);
    lateness = Timer.builder(LATENESS)
        .description("How long after it was due a person was looked at")
        .publishPercentileHistogram()
        .maximumExpectedValue(Duration.ofMinutes(10))
        .register(registry);
    overdue = Counter.builder(OVERDUE)
        .description("People found long overdue, their message lost, and queued again")
        .register(registry);
  }

  void entered(Trigger trigger) {
    Counter.builder(ENTRIES)
        .description("People who entered a journey, by the kind of trigger")
        .tag("trigger", kind(trigger))
        .register(registry)
        .increment();
  }

  void refused(Admission.Why why) {
    Counter.builder(REFUSED)
        .description("People a trigger named whom the entry rules kept out, by rule")
        .tag("why", why.name().toLowerCase(java.util.Locale.ROOT))
        .register(registry)
        .increment();
  }

  void step(Outcome outcome) {
    steps[outcome.ordinal()].increment();
  }

  void late(Duration late) {
    lateness.record(late.isNegative() ? Duration.ZERO : late);
  }

  void exited(String reason) {
    Counter.builder(EXITS)
        .description("People who left a journey, by reason")
        .tag("reason", reason.toLowerCase(java.util.Locale.ROOT))
        .register(registry)
        .increment();
  }

  void heldBack(ReaderLimits.Limit limit) {
    Counter.builder(HELD_BACK)
        .description("Sends a reader's limits held back until they allow it, by limit")
        .tag("limit", limit.name().toLowerCase(java.util.Locale.ROOT))
        .register(registry)
        .increment();
  }

  void overdue(int found) {
    overdue.increment(found);
  }

  static String kind(Trigger trigger) {
    return switch (trigger) {
      case Trigger.SignedUp signedUp -> "signed_up";
      case Trigger.Did did -> "activity";
      case Trigger.Email email -> "email";
      case Trigger.ProductNews news -> "product_news";
      case Trigger.Lapsed lapsed -> "lapsed";
      case Trigger.DateOf date -> "date";
    };
  }
}
