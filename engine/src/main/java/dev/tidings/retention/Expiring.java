package dev.tidings.retention;

import dev.tidings.storage.Expiry;
import java.time.Duration;

/** A table a capability keeps for {@code lifetime}, and its owner's way of removing what is older. */
public record Expiring(Expiry expiry, Duration lifetime) {
  public Expiring {
    if (lifetime.isNegative() || lifetime.isZero())
      throw new IllegalArgumentException("a lifetime must be longer than zero, got " + lifetime);
  }
}
