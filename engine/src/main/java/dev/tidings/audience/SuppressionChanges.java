package dev.tidings.audience;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Suppressions people add or lift by hand, counted in {@value #METRIC} by where (the API, the
 * dashboard) and what: an address suppressed by this request, or a suppression lifted. A request that
 * changed nothing (suppressed already, not suppressed) is not counted. Receipts' suppressions
 * (bounces, complaints, unsubscribes) are counted by the delivery capability.
 */
public final class SuppressionChanges {
  public static final String METRIC = "tidings_suppressions_changed";

  /** Where the change was asked for: the label {@code source}. */
  public enum Source {
    API,
    DASHBOARD
  }

  /** The label {@code action}. */
  public enum Action {
    ADD,
    LIFT
  }

  private final Map<Source, Map<Action, Counter>> counters = new EnumMap<>(Source.class);

  public SuppressionChanges(MeterRegistry metrics) {
    for (Source source : Source.values()) {
      Map<Action, Counter> bySource = new EnumMap<>(Action.class);
      for (Action action : Action.values())
        bySource.put(
            action,
            Counter.builder(METRIC)
                .description("Suppressions added or lifted by hand, by where and which")
                .tag("source", source.name().toLowerCase(Locale.ROOT))
                .tag("action", action.name().toLowerCase(Locale.ROOT))
                .register(metrics));
      counters.put(source, bySource);
    }
  }

  /** Counts one change that happened. */
  public void changed(Source source, Action action) {
    Objects.requireNonNull(Objects.requireNonNull(counters.get(source)).get(action))
        .increment();
  }
}
