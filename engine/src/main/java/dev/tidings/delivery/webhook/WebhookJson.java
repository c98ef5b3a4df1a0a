package dev.tidings.delivery.webhook;

import dev.tidings.Json;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectWriter;

/** Reading provider bodies: the raw bytes were needed for the signature, the tree for the events. */
public final class WebhookJson {
  private WebhookJson() {}

  public static JsonNode parse(byte[] body) {
    if (body.length == 0) throw WebhookRefused.malformed("the request body is empty");
    try {
      JsonNode node = Json.MAPPER.readTree(body);
      if (node == null || node.isMissingNode())
        throw WebhookRefused.malformed("the request body holds no JSON document");
      return node;
    } catch (NumberFormatException e) {
      throw WebhookRefused.malformed("malformed JSON: a number too large to read");
    } catch (JacksonException e) {
      throw WebhookRefused.malformed("malformed JSON: " + e.getOriginalMessage());
    }
  }

  /**
   * The event as text, to be kept beside what was made of it. Numbers are written in scientific notation
   * where plain digits would not do: a signed body may hold {@code 1E83647}, which has no plain form the
   * writer accepts, and an event Tidings does not understand is still kept, never refused for it.
   */
  public static String raw(JsonNode event) {
    return RAW.writeValueAsString(event);
  }

  private static final ObjectWriter RAW =
      Json.MAPPER.writer().without(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN);

  /** A non-blank string field, if there is one. */
  public static Optional<String> text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    if (!value.isString() || value.asString().isBlank()) return Optional.empty();
    return Optional.of(value.asString());
  }

  /** An ISO-8601 instant with an offset (providers write 'Z' or '-04:00', up to 7 fraction digits). */
  public static Optional<Instant> isoInstant(JsonNode node, String field) {
    return text(node, field).flatMap(text -> {
      try {
        return Optional.of(OffsetDateTime.parse(text).toInstant());
      } catch (DateTimeParseException e) {
        return Optional.empty();
      }
    });
  }
}
