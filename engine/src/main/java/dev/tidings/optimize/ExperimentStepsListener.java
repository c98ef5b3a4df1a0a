package dev.tidings.optimize;

import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventInbox;
import dev.tidings.events.EventListener;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Opened;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * Counts people's first opens and clicks of experiments' emails for their variants, from the funnel's
 * events: each once, however often an event is delivered (its inbox), as the funnel tells each step of
 * a message once.
 */
public final class ExperimentStepsListener implements EventListener {
  public static final String NAME = "experiment-steps";
  private final Jdbi jdbi;

  public ExperimentStepsListener(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<CloudEventType> types() {
    return Set.of(CloudEventType.OPENED, CloudEventType.CLICKED);
  }

  @Override
  public void apply(List<ReceivedEvent> events) {
    jdbi.useTransaction(handle -> {
      // most emails are in no experiment: their events count for nothing, so need no inbox mark
      List<ReceivedEvent> ofExperiments = ExperimentSteps.ofExperiments(handle, events);
      List<String> opened = new ArrayList<>();
      List<String> clicked = new ArrayList<>();
      for (ReceivedEvent received : EventInbox.unseen(handle, NAME, ofExperiments)) {
        switch (received.event()) {
          case Opened open -> opened.add(open.messageId());
          case Clicked click -> clicked.add(click.messageId());
          default -> {}
        }
      }
      ExperimentSteps.count(handle, opened, clicked);
    });
  }
}
