package dev.tidings.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/** A value that must never reach a log line: {@link #toString()} masks it. */
public record Secret(String value) {
  public Secret {
    Objects.requireNonNull(value, "value");
  }

  /** Constant-time comparison, so a caller probing keys learns nothing from timing. */
  public boolean matches(String candidate) {
    return candidate != null
        && MessageDigest.isEqual(
            value.getBytes(StandardCharsets.UTF_8), candidate.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "<masked>";
  }
}
