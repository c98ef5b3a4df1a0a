package dev.tidings.events;

import dev.tidings.Json;
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where an emitter writes its events, inside its own transaction: they are relayed only if that
 * transaction commits, and once it has, they are relayed even if the node dies the next moment. One
 * call is one row, however many events it holds, so a batch of receipts pays one insert.
 */
public final class EventOutbox {
  /** Writes nothing: for benchmarks that measure a path without its events, and for tools. */
  public static final EventOutbox OFF = new EventOutbox(false);

  /** Writes every event. */
  public static final EventOutbox ON = new EventOutbox(true);

  private final boolean enabled;

  private EventOutbox(boolean enabled) {
    this.enabled = enabled;
  }

  /** Whether it writes: an emitter that tells its events from its own statement asks. */
  public boolean on() {
    return enabled;
  }

  /** Writes {@code events} into the outbox within {@code handle}'s transaction. */
  public void append(Handle handle, Collection<? extends DomainEvent> events) {
    if (!enabled || events.isEmpty()) return;
    ArrayNode rows = Json.MAPPER.createArrayNode();
    for (DomainEvent event : events) {
      ObjectNode row = rows.addObject();
      row.put("id", newId().toString());
      row.put("type", CloudEventType.of(event).typeName());
      row.put("subject", event.subject());
      row.put("time", event.time().toString());
      row.set("data", Json.MAPPER.valueToTree(event));
    }
    handle
        .createUpdate("INSERT INTO event_outbox (events) VALUES (CAST(:events AS json))")
        .bind("events", rows.toString())
        .execute();
  }

  /**
   * A random (version 4) UUID from the thread's generator: an event id need be unique, not secret,
   * and the secure generator's lock would be shared by every emitter.
   */
  static UUID newId() {
    var random = ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & ~(0xC0L << 56)) | (0x80L << 56);
    return new UUID(high, low);
  }
}
