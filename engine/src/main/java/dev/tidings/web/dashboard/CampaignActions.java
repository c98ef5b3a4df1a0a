package dev.tidings.web.dashboard;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What people did to campaigns from the dashboard, counted in {@value #METRIC} by action: how much of
 * the work is done in the browser rather than through the API, and an alert's view of, say, a burst of
 * cancellations.
 */
final class CampaignActions {
  static final String METRIC = "tidings_dashboard_campaign_actions";

  enum Action {
    CREATE,
    SAVE,
    REFUSED,
    COUNT,
    BLOCK,
    PREVIEW,
    TEST,
    SEND,
    SCHEDULE,
    UNSCHEDULE,
    PAUSE,
    RESUME,
    CANCEL,
    DELETE
  }

  private final Map<Action, Counter> counters = new EnumMap<>(Action.class);

  CampaignActions(MeterRegistry metrics) {
    for (Action action : Action.values())
      counters.put(
          action,
          Counter.builder(METRIC)
              .description("Campaign actions done from the dashboard (refused: a save the checks"
                  + " turned down)")
              .tag("action", action.name().toLowerCase(Locale.ROOT))
              .register(metrics));
  }

  void done(Action action) {
    Objects.requireNonNull(counters.get(action)).increment();
  }
}
