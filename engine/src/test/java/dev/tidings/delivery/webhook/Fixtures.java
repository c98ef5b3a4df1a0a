package dev.tidings.delivery.webhook;

import dev.tidings.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The providers' real payloads and vectors under src/test/resources/esp-webhooks (see its README). */
public final class Fixtures {
  private Fixtures() {}

  public static byte[] bytes(String path) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/esp-webhooks/" + path)) {
      if (in == null) throw new IllegalArgumentException("no fixture " + path);
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A one-line text fixture without its final newline. */
  public static String text(String path) {
    return new String(bytes(path), StandardCharsets.UTF_8).strip();
  }

  public static JsonNode json(String path) {
    return Json.MAPPER.readTree(bytes(path));
  }

  /** A copy of an event object with our message id added at {@code field} of {@code parent}. */
  public static ObjectNode withMessageId(JsonNode event, String parentField, String messageId) {
    ObjectNode copy = (ObjectNode) event.deepCopy();
    ObjectNode target = parentField.isEmpty()
        ? copy
        : copy.has(parentField) && copy.get(parentField).isObject()
            ? (ObjectNode) copy.get(parentField)
            : copy.putObject(parentField);
    target.put(MessageIds.KEY, messageId);
    return copy;
  }

  public static InstantSource clockAt(Instant now) {
    return Clock.fixed(now, ZoneOffset.UTC);
  }
}
