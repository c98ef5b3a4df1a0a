package dev.tidings.testing;

import dev.tidings.Json;
import dev.tidings.events.CloudEvent;
import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventListener;
import dev.tidings.events.EventListener.ReceivedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;
import tools.jackson.databind.JsonNode;

/**
 * Hands what waits in the event outbox straight to a listener, as the relay and the listener's queue
 * would, for tests of one capability's reaction without a node: everything waiting is taken, and the
 * events of other types are dropped.
 */
public final class OutboxDeliveries {
  private static final AtomicLong POSITION = new AtomicLong(1L << 40);

  private OutboxDeliveries() {}

  /** Takes the waiting events of {@code types}, in the order they were written. */
  public static List<ReceivedEvent> take(Jdbi jdbi, Set<CloudEventType> types) {
    List<String> rows = jdbi.withHandle(handle -> handle
        .createQuery("DELETE FROM event_outbox RETURNING id, CAST(events AS text)")
        .map((rs, ctx) -> rs.getString(2))
        .list());
    List<ReceivedEvent> events = new ArrayList<>();
    for (String row : rows)
      for (JsonNode stored : Json.MAPPER.readTree(row)) {
        var node = stored.deepCopy();
        ((tools.jackson.databind.node.ObjectNode) node).put("position", POSITION.incrementAndGet());
        CloudEvent envelope = CloudEvent.of(node);
        if (types.contains(envelope.type()))
          events.add(new ReceivedEvent(envelope, envelope.event()));
      }
    return events;
  }

  /** Hands {@code listener} the waiting events of its types; answers how many. */
  public static int deliver(Jdbi jdbi, EventListener listener) {
    List<ReceivedEvent> events = take(jdbi, listener.types());
    if (events.isEmpty()) return 0;
    try {
      listener.apply(events);
    } catch (Exception e) {
      throw new IllegalStateException(listener.name() + " failed", e);
    }
    return events.size();
  }
}
