package dev.tidings.testing;

import dev.tidings.Json;
import dev.tidings.events.CloudEvent;
import dev.tidings.events.CloudEventType;
import dev.tidings.events.DomainEvent;
import dev.tidings.events.EventListener.ReceivedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** Events as the relay hands them to a listener, each with an id of its own, for listeners' tests. */
public final class ReceivedEvents {
  private static final AtomicLong POSITION = new AtomicLong();

  private ReceivedEvents() {}

  public static List<ReceivedEvent> of(DomainEvent... events) {
    List<ReceivedEvent> received = new ArrayList<>();
    for (DomainEvent event : events)
      received.add(new ReceivedEvent(
          new CloudEvent(
              UUID.randomUUID().toString(),
              POSITION.incrementAndGet(),
              CloudEventType.of(event),
              event.subject(),
              event.time(),
              Json.MAPPER.valueToTree(event)),
          event));
    return received;
  }
}
