package dev.tidings.audience;

import java.util.Locale;
import java.util.Optional;

/** Whether a subscriber may be mailed; written in lower case in the formats. */
public enum Consent {
  SUBSCRIBED,
  PENDING,
  UNSUBSCRIBED;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Consent> ofWire(String text) {
    for (Consent consent : values()) if (consent.wire().equals(text)) return Optional.of(consent);
    return Optional.empty();
  }
}
