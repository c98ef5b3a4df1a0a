package dev.tidings.events;

import dev.tidings.Json;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One row of {@code event_outbox} as the relay takes it, expanded into its events (migration V43 says
 * what a row holds): a JSON array of whole events, or a batch of one type in columns, whose n-th event
 * (from 1) is the n-th value of every column, with the id {@code e<row>-<n>}.
 *
 * @param id the row's id, which orders the rows and names a batch's events
 * @param events the row's JSON text, as its writer wrote it
 */
record OutboxRow(long id, String events) {
  /** An event taken from the outbox, before the log gives it its position. */
  record Unplaced(String id, CloudEventType type, String subject, Instant time, JsonNode data) {
    CloudEvent at(long position) {
      return new CloudEvent(id, position, type, subject, time, data);
    }
  }

  /** How a batch's times read in its events: UTC to the microsecond, as PostgreSQL keeps them. */
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  /** The row's events in their order; an {@link IllegalStateException} for a row no writer writes. */
  List<Unplaced> expand() {
    JsonNode root = Json.MAPPER.readTree(events);
    if (root.isArray()) {
      var whole = new ArrayList<Unplaced>(root.size());
      for (JsonNode event : root)
        whole.add(new Unplaced(
            event.path("id").asString(),
            type(event.path("type").asString()),
            event.path("subject").asString(),
            instant(event.path("time").asString()),
            event.path("data")));
      return whole;
    }
    if (!root.isObject())
      throw new IllegalStateException("outbox row " + id + " is not JSON events");
    CloudEventType type = type(root.path("type").asString());
    JsonNode columns = root.path("columns");
    JsonNode subjects = columns.path(root.path("subject").asString());
    JsonNode times = columns.path("time");
    var batch = new ArrayList<Unplaced>(times.size());
    for (int i = 0; i < times.size(); i++) {
      Instant time = instant(times.get(i).asString());
      String at = MICROS.format(time);
      ObjectNode data = Json.MAPPER.createObjectNode();
      for (Map.Entry<String, JsonNode> column : columns.properties()) {
        JsonNode value = column.getValue().get(i);
        data.set(column.getKey(), value == null ? Json.MAPPER.nullNode() : value);
      }
      data.put("time", at);
      batch.add(
          new Unplaced("e" + id + "-" + (i + 1), type, subjects.get(i).asString(), time, data));
    }
    return batch;
  }

  private CloudEventType type(String name) {
    return CloudEventType.named(name)
        .orElseThrow(() -> new IllegalStateException(
            "outbox row " + id + " holds an event of unknown type " + name));
  }

  /** A writer's time (RFC 3339, any offset) as PostgreSQL would store it: rounded to the microsecond. */
  static Instant instant(String text) {
    return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
        .toInstant()
        .plusNanos(500)
        .truncatedTo(ChronoUnit.MICROS);
  }
}
