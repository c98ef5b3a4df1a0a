package dev.tidings.notify;

import java.util.Locale;
import java.util.Optional;

/** Why a subscriber hears of a piece of content. */
public enum NotificationKind {
  /** An entity they follow published it. */
  FOLLOWED,
  /** It happens near them. */
  NEARBY;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<NotificationKind> ofWire(String text) {
    for (NotificationKind kind : values()) if (kind.wire().equals(text)) return Optional.of(kind);
    return Optional.empty();
  }
}
