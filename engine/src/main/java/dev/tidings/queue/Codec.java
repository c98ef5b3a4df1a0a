package dev.tidings.queue;

import dev.tidings.Json;
import tools.jackson.core.JacksonException;

/** Turns a capability's records into message bodies and back. */
public interface Codec<T> {
  byte[] encode(T value);

  /** The record in {@code body}; throws {@link UndecodableMessageException} when it holds none. */
  T decode(byte[] body);

  /** JSON through Tidings' one mapper: readable in a dead-letter queue, tolerant of added fields. */
  static <T> Codec<T> json(Class<T> type) {
    return new Codec<>() {
      @Override
      public byte[] encode(T value) {
        try {
          return Json.MAPPER.writeValueAsBytes(value);
        } catch (JacksonException e) {
          throw new IllegalArgumentException(
              "cannot encode " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
      }

      @Override
      public T decode(byte[] body) {
        try {
          return Json.MAPPER.readValue(body, type);
        } catch (JacksonException e) {
          throw new UndecodableMessageException(
              "not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
      }
    };
  }
}
