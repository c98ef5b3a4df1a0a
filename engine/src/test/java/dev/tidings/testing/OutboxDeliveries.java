package dev.tidings.testing;

import dev.tidings.Json;
import dev.tidings.events.CloudEvent;
import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventListener;
import dev.tidings.events.EventListener.ReceivedEvent;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

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
    List<Map.Entry<Long, String>> rows = jdbi.withHandle(handle -> handle
        .createQuery(
            "WITH taken AS (DELETE FROM event_outbox RETURNING id, CAST(events AS text) AS events)"
                + " SELECT id, events FROM taken ORDER BY id")
        .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getString(2)))
        .list());
    List<ReceivedEvent> events = new ArrayList<>();
    for (var row : rows)
      for (JsonNode stored : listed(row.getKey(), Json.MAPPER.readTree(row.getValue()))) {
        var node = stored.deepCopy();
        ((ObjectNode) node).put("position", POSITION.incrementAndGet());
        CloudEvent envelope = CloudEvent.of(node);
        if (types.contains(envelope.type()))
          events.add(new ReceivedEvent(envelope, envelope.event()));
      }
    return events;
  }

  /** The events of one outbox row: a list as it is, a batch in columns one object per event. */
  private static List<JsonNode> listed(long rowId, JsonNode row) {
    List<JsonNode> events = new ArrayList<>();
    if (row.isArray()) {
      row.forEach(events::add);
      return events;
    }
    JsonNode columns = row.path("columns");
    for (int n = 0; n < columns.path("time").size(); n++) {
      String at = OffsetDateTime.parse(columns.path("time").get(n).asString())
          .toInstant()
          .toString();
      ObjectNode data = Json.MAPPER.createObjectNode();
      for (var column : columns.properties())
        data.set(column.getKey(), column.getValue().get(n));
      data.put("time", at);
      ObjectNode event = Json.MAPPER.createObjectNode();
      event.put("id", "e" + rowId + "-" + (n + 1));
      event.put("type", row.path("type").asString());
      event.put("subject", columns.path(row.path("subject").asString()).get(n).asString());
      event.put("time", at);
      event.set("data", data);
      events.add(event);
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
