package dev.tidings.audience;

import java.util.Locale;
import java.util.Optional;

/** Why an address must not be mailed. */
public enum SuppressionReason {
  BOUNCE,
  COMPLAINT,
  UNSUBSCRIBE,
  MANUAL;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<SuppressionReason> ofWire(String text) {
    for (SuppressionReason reason : values())
      if (reason.wire().equals(text)) return Optional.of(reason);
    return Optional.empty();
  }
}
