package dev.tidings.message;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a token in an email's URLs says: which email, when the token was issued (to the minute, which
 * is all a token keeps), how many open-time product slots the email has (0 when none), so that each
 * slot request knows the size of the list it takes its position from, and the experiment arm its
 * slots belong to (0 when none), decided when the email was written, so that no slot request has to
 * look it up. The token does not interpret the arm: the recommender reads it as the set of algorithms
 * the arm blends. The subscriber's locale when the email was written rides along too, so a slot card
 * is priced without reading the subscriber (tokens written before it carry none).
 */
public record MessageToken(
    MessageId message, Instant issuedAt, int slots, int arm, Optional<Locale> locale) {
  public static final int MAX_SLOTS = 12;
  /** Room for sixteen algorithms, one bit each. */
  public static final int MAX_ARM = 0xffff;

  /** Longest language tag a token carries (BCP 47 tags people use are far shorter). */
  public static final int MAX_LOCALE_CHARS = 35;

  /** A token of an email in no experiment arm. */
  public MessageToken(MessageId message, Instant issuedAt, int slots) {
    this(message, issuedAt, slots, 0);
  }

  /** A token that names no locale: the slot cards look the subscriber's up. */
  public MessageToken(MessageId message, Instant issuedAt, int slots, int arm) {
    this(message, issuedAt, slots, arm, Optional.empty());
  }

  public MessageToken {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(issuedAt, "issuedAt");
    issuedAt = issuedAt.truncatedTo(ChronoUnit.MINUTES);
    if (issuedAt.isBefore(TokenCodec.EPOCH))
      throw new IllegalArgumentException("issuedAt must not be before " + TokenCodec.EPOCH);
    if (slots < 0 || slots > MAX_SLOTS)
      throw new IllegalArgumentException(
          "slots must be within 0.." + MAX_SLOTS + " but was " + slots);
    if (arm < 0 || arm > MAX_ARM)
      throw new IllegalArgumentException("arm must be within 0.." + MAX_ARM + " but was " + arm);
    Objects.requireNonNull(locale, "locale");
    // a locale too long to carry is left out: the cards look the subscriber's up instead
    locale = locale.filter(l -> {
      String tag = l.toLanguageTag();
      return !tag.equals("und") && tag.length() <= MAX_LOCALE_CHARS;
    });
  }
}
