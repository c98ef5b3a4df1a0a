package dev.tidings.events;

import dev.tidings.Json;
import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One relayed event as it travels everywhere (listeners, webhooks, the events API, the stream): the
 * CloudEvents 1.0 JSON format, with the event's place in the log as the {@code position} extension.
 *
 * @param id unique per event; a receiver that sees it twice (delivery is at least once) drops the second
 * @param position the event's place in the log: what {@code GET /api/v1/events?after=} takes
 * @param data the event's record as JSON
 */
public record CloudEvent(
    String id, long position, CloudEventType type, String subject, Instant time, JsonNode data) {
  public static final String SPEC_VERSION = "1.0";
  public static final String SOURCE = "/tidings";
  public static final String CONTENT_TYPE = "application/cloudevents+json";

  /** The structured-mode JSON document. */
  public ObjectNode json() {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("specversion", SPEC_VERSION);
    node.put("id", id);
    node.put("source", SOURCE);
    node.put("type", type.typeName());
    node.put("subject", subject);
    node.put("time", time.toString());
    node.put("datacontenttype", "application/json");
    node.put("position", position);
    node.set("data", data);
    return node;
  }

  /**
   * The event in {@code node}, as {@link #json()} wrote it; an {@link IllegalArgumentException} naming
   * what is wrong when it is not one.
   */
  public static CloudEvent of(JsonNode node) {
    String typeName = text(node, "type");
    CloudEventType type = CloudEventType.named(typeName)
        .orElseThrow(() -> new IllegalArgumentException("unknown event type '" + typeName + "'"));
    JsonNode position = node.path("position");
    if (!position.isIntegralNumber())
      throw new IllegalArgumentException("position must be an integer");
    JsonNode data = node.path("data");
    if (!data.isObject()) throw new IllegalArgumentException("data must be an object");
    Instant time;
    try {
      time = Instant.parse(text(node, "time"));
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("time must be an RFC 3339 instant", e);
    }
    return new CloudEvent(
        text(node, "id"), position.asLong(), type, text(node, "subject"), time, data);
  }

  /** The event's record; an {@link IllegalArgumentException} when the data does not fit it. */
  public DomainEvent event() {
    try {
      return Json.MAPPER.treeToValue(data, type.record());
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalArgumentException(
          "data is not a " + type.typeName() + ": " + e.getOriginalMessage(), e);
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    if (!value.isString() || value.asString().isEmpty())
      throw new IllegalArgumentException(field + " must be a non-empty string");
    return value.asString();
  }
}
