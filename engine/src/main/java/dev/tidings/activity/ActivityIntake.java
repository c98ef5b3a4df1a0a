package dev.tidings.activity;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.events.EventOutbox;
import dev.tidings.imports.BulkImporter;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportKind;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.imports.JsonRows;
import dev.tidings.imports.RowReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Raw activity events in: stored as received, an event id seen before ignored (replays are normal).
 * Requests of events ({@link #record(List)}, {@link #recordJson}, {@link #recordLines}) are checked once and
 * written with one statement per batch of {@link #batchEvents()}, all or nothing; files go through the bulk
 * importer ({@link #importEvents}). Aggregation reads the events from here; it is not part of the intake.
 */
public final class ActivityIntake {
  /** Events per statement: large enough that a round trip is cheap per event, small enough to stay in a few MB. */
  public static final int DEFAULT_BATCH_EVENTS = 5_000;

  private static final ImportKind<ActivityEvent> EVENTS =
      new ImportKind<>("events", EventRows.INSTANCE, new EventStaging());

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final BulkImporter importer;
  private final int batchEvents;
  private final StoredEvents listener;
  private final EventOutbox outbox;

  public ActivityIntake(Jdbi jdbi, InstantSource clock) {
    this(jdbi, clock, DEFAULT_BATCH_EVENTS);
  }

  /** {@code batchEvents}: events written per statement (tests use tiny batches to cross their boundaries). */
  public ActivityIntake(Jdbi jdbi, InstantSource clock, int batchEvents) {
    this(jdbi, clock, batchEvents, StoredEvents.NONE);
  }

  /**
   * {@code listener}: told of the events each batch stored, in the batch's transaction (the
   * aggregates).
   */
  public ActivityIntake(Jdbi jdbi, InstantSource clock, int batchEvents, StoredEvents listener) {
    this(jdbi, clock, batchEvents, listener, EventOutbox.ON);
  }

  /**
   * {@code outbox}: each event stored through this intake (not the replays, nor bulk imports of history)
   * is told as accepted ({@link dev.tidings.events.activity.ActivityAccepted}), in its batch's statement.
   */
  public ActivityIntake(
      Jdbi jdbi, InstantSource clock, int batchEvents, StoredEvents listener, EventOutbox outbox) {
    if (batchEvents < 1)
      throw new IllegalArgumentException("batchEvents must be >= 1, got " + batchEvents);
    this.jdbi = jdbi;
    this.clock = clock;
    this.importer = new BulkImporter(jdbi, clock);
    this.batchEvents = batchEvents;
    this.listener = listener;
    this.outbox = outbox;
  }

  public int batchEvents() {
    return batchEvents;
  }

  /** Stores one event; false when its event id was seen before (nothing stored). */
  public boolean record(ActivityEvent event) {
    return record(List.of(event)).accepted() == 1;
  }

  /**
   * Stores the events in one transaction, or none of them when that fails. An event whose id is in the table
   * already, or earlier in {@code events}, is counted as a duplicate and not stored.
   */
  public IntakeResult record(List<ActivityEvent> events) {
    try (var batches = batches()) {
      events.forEach(batches::add);
      return batches.commit();
    }
  }

  /**
   * The elements of a JSON array (an API body), each read as an event once and all stored as by {@link
   * #record(List)}.
   *
   * @throws InvalidInputException naming every bad element by its position ("event 2: ..."); nothing is stored
   */
  public IntakeResult recordJson(JsonNode array) {
    if (!array.isArray()) throw new InvalidInputException("expected a JSON array of events");
    var bad = new BadEvents("event");
    var events = new ArrayList<ActivityEvent>(array.size());
    int position = 0;
    for (JsonNode element : array) {
      position++;
      try {
        events.add(fromJson(element));
      } catch (InvalidInputException e) {
        bad.add(position, String.join("; ", e.problems()));
      }
    }
    bad.throwIfAny();
    return record(events);
  }

  /**
   * Events as JSON Lines (or CSV) read from a stream, each line checked once; stored batch by batch while the
   * stream is read, in one transaction that commits only when every line was good.
   *
   * @throws InvalidInputException naming every bad line by its number ("line 3: ..."); nothing is stored
   * @throws IOException when the stream fails; nothing is stored
   */
  public IntakeResult recordLines(InputStream in, Format format) throws IOException {
    var bad = new BadEvents("line");
    try (var rows = RowReader.of(in, format, EventRows.INSTANCE);
        var batches = batches()) {
      RowReader.Row<ActivityEvent> row;
      while ((row = rows.next()) != null) {
        switch (row) {
          case RowReader.Valid<ActivityEvent> valid -> batches.add(valid.value());
          case RowReader.Invalid<ActivityEvent> invalid -> {
            bad.add(invalid.line(), invalid.problem());
            batches.discard();
          }
        }
      }
      bad.throwIfAny();
      return batches.commit();
    }
  }

  private EventBatches batches() {
    return new EventBatches(jdbi, clock.instant(), batchEvents, listener, outbox);
  }

  /** Events stored so far (replays not counted). */
  public long count() {
    return jdbi.withHandle(EventTable::count);
  }

  public ImportReport importEvents(Path file, ImportOptions options) {
    return importer.run(EVENTS, file, options);
  }

  public ImportReport importEvents(InputStream in, Format format, ImportOptions options) {
    return importer.run(EVENTS, in, format, options);
  }

  /** @throws InvalidInputException listing every problem */
  public static ActivityEvent fromJson(JsonNode node) {
    return JsonRows.read(node, EventRows.INSTANCE);
  }

  public static ActivityEvent fromMap(Map<String, ?> map) {
    return JsonRows.readMap(map, EventRows.INSTANCE);
  }

  public static ObjectNode toJson(ActivityEvent event) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("userId", event.userId());
    node.put("type", event.type().wire());
    node.put("itemId", event.itemId());
    node.put("timestamp", event.timestamp().toString());
    event.eventId().ifPresent(id -> node.put("eventId", id));
    node.put("quantity", event.quantity());
    event.price().ifPresent(price -> node.put("price", price));
    event.sessionId().ifPresent(session -> node.put("sessionId", session));
    if (!event.attributes().isEmpty()) {
      ObjectNode attributes = node.putObject("attributes");
      event.attributes().forEach(attributes::put);
    }
    return node;
  }
}
