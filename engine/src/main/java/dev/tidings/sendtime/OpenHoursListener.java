package dev.tidings.sendtime;

import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventInbox;
import dev.tidings.events.EventListener;
import dev.tidings.events.delivery.Opened;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * Learns the open hours from the funnel's first human opens: each email a person opened adds one open
 * at the hour they first opened it, once, whatever proxies fetched before and however often the event
 * is delivered. Previews tell no opens.
 */
public final class OpenHoursListener implements EventListener {
  public static final String NAME = "send-time-open-hours";
  private final Jdbi jdbi;

  public OpenHoursListener(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<CloudEventType> types() {
    return Set.of(CloudEventType.OPENED);
  }

  @Override
  public void apply(List<ReceivedEvent> events) {
    jdbi.useTransaction(handle -> {
      List<OpenHours.Open> opens = new ArrayList<>();
      for (ReceivedEvent received : EventInbox.unseen(handle, NAME, events))
        if (received.event() instanceof Opened opened)
          opens.add(new OpenHours.Open(opened.subscriberId(), opened.time()));
      OpenHours.record(handle, opens);
    });
  }
}
