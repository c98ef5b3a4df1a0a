package dev.tidings.activity;

import dev.tidings.imports.BulkImporter;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportKind;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.imports.JsonRows;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Raw activity events in: stored as received, an event id seen before ignored (replays are normal).
 * Aggregation reads them from here; it is not part of the intake.
 */
public final class ActivityIntake {
  private static final ImportKind<ActivityEvent> EVENTS =
      new ImportKind<>("events", EventRows.INSTANCE, new EventStaging());

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final BulkImporter importer;

  public ActivityIntake(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
    this.importer = new BulkImporter(jdbi, clock);
  }

  /** Stores one event; false when its event id was seen before (nothing stored). */
  public boolean record(ActivityEvent event) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("""
            INSERT INTO activity_events (event_id, user_id, type, item_id, occurred_at, quantity, price, received_at)
            VALUES (:eventId, :userId, :type, :itemId, :at, :quantity, :price, :now)
            ON CONFLICT (event_id) WHERE event_id IS NOT NULL DO NOTHING""")
            .bind("eventId", event.eventId().orElse(null))
            .bind("userId", event.userId())
            .bind("type", event.type().wire())
            .bind("itemId", event.itemId())
            .bind("at", event.timestamp())
            .bind("quantity", event.quantity())
            .bind("price", event.price().orElse(null))
            .bind("now", clock.instant())
            .execute())
        > 0;
  }

  /** Events stored so far (replays not counted). */
  public long count() {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT count(*) FROM activity_events")
        .mapTo(Long.class)
        .one());
  }

  public ImportReport importEvents(Path file, ImportOptions options) {
    return importer.run(EVENTS, file, options);
  }

  public ImportReport importEvents(InputStream in, Format format, ImportOptions options) {
    return importer.run(EVENTS, in, format, options);
  }

  /** @throws dev.tidings.InvalidInputException listing every problem */
  public static ActivityEvent fromJson(JsonNode node) {
    return JsonRows.read(node, EventRows.INSTANCE);
  }

  public static ActivityEvent fromMap(Map<String, ?> map) {
    return JsonRows.readMap(map, EventRows.INSTANCE);
  }

  public static ObjectNode toJson(ActivityEvent event) {
    ObjectNode node = dev.tidings.Json.MAPPER.createObjectNode();
    node.put("userId", event.userId());
    node.put("type", event.type().wire());
    node.put("itemId", event.itemId());
    node.put("timestamp", event.timestamp().toString());
    event.eventId().ifPresent(id -> node.put("eventId", id));
    node.put("quantity", event.quantity());
    event.price().ifPresent(price -> node.put("price", price));
    return node;
  }
}
