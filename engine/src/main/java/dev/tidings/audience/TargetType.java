package dev.tidings.audience;

import java.util.Locale;
import java.util.Optional;

/** What a subscriber can follow; written in lower case in the formats. */
public enum TargetType {
  BRAND,
  ARTIST,
  GALLERY,
  STORE,
  CATEGORY;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<TargetType> ofWire(String text) {
    for (TargetType type : values()) if (type.wire().equals(text)) return Optional.of(type);
    return Optional.empty();
  }
}
