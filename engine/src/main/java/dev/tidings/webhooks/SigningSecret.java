package dev.tidings.webhooks;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * An endpoint's signing secret as the Standard Webhooks specification writes it: {@code whsec_}
 * followed by the base64 of 32 random bytes. It is shown once, in the answer that created or rotated
 * it; {@link #toString()} masks it so that it never reaches a log line.
 */
public record SigningSecret(String value) {
  public static final String PREFIX = "whsec_";
  private static final int BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  public SigningSecret {
    Objects.requireNonNull(value, "value");
    if (!value.startsWith(PREFIX)) throw new IllegalArgumentException("not a whsec_ secret");
  }

  public static SigningSecret generate() {
    byte[] key = new byte[BYTES];
    RANDOM.nextBytes(key);
    return new SigningSecret(PREFIX + Base64.getEncoder().encodeToString(key));
  }

  /** The HMAC key: the bytes the base64 after the prefix stands for. */
  public byte[] key() {
    return Base64.getDecoder().decode(value.substring(PREFIX.length()));
  }

  @Override
  public String toString() {
    return PREFIX + "****";
  }
}
