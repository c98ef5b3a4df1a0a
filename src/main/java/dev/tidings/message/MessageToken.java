package dev.tidings.message;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * What a token in an email's URLs says: which email, and when the token was issued (to the minute,
 * which is all a token keeps).
 */
public record MessageToken(MessageId message, Instant issuedAt) {
  public MessageToken {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(issuedAt, "issuedAt");
    issuedAt = issuedAt.truncatedTo(ChronoUnit.MINUTES);
    if (issuedAt.isBefore(TokenCodec.EPOCH))
      throw new IllegalArgumentException("issuedAt must not be before " + TokenCodec.EPOCH);
  }
}
