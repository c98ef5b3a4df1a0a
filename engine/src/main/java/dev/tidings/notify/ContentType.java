package dev.tidings.notify;

import java.util.Locale;
import java.util.Optional;

/** What a piece of content is; written in lower case in the formats. */
public enum ContentType {
  PRODUCT,
  ARTWORK,
  ARTICLE,
  SHOW,
  EVENT;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<ContentType> ofWire(String text) {
    for (ContentType type : values()) if (type.wire().equals(text)) return Optional.of(type);
    return Optional.empty();
  }
}
