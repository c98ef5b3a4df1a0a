package dev.tidings.message;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * What a token in an email's URLs says: which email, when the token was issued (to the minute, which
 * is all a token keeps), and how many open-time product slots the email has (0 when none), so that
 * each slot request knows the size of the list it takes its position from.
 */
public record MessageToken(MessageId message, Instant issuedAt, int slots) {
  public static final int MAX_SLOTS = 12;

  public MessageToken {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(issuedAt, "issuedAt");
    issuedAt = issuedAt.truncatedTo(ChronoUnit.MINUTES);
    if (issuedAt.isBefore(TokenCodec.EPOCH))
      throw new IllegalArgumentException("issuedAt must not be before " + TokenCodec.EPOCH);
    if (slots < 0 || slots > MAX_SLOTS)
      throw new IllegalArgumentException(
          "slots must be within 0.." + MAX_SLOTS + " but was " + slots);
  }
}
