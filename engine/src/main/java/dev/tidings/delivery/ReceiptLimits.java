package dev.tidings.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a receipt may hold for the store to take it, checked at every edge that makes receipts (the
 * generic delivery-events API refuses the request naming the field; a provider's webhook keeps the
 * event as refused, see {@code webhook.Mapped}). PostgreSQL cannot hold a NUL in text nor a time
 * past the year 294276; a receipt of a time before 2000 or more than a day ahead is a client's
 * mistake (a clock, a unit of milliseconds for seconds) that would only skew the per-minute
 * funnel. The window ahead allows for clocks a little fast and for time zones misread by a few hours.
 */
public final class ReceiptLimits {
  /** The earliest time a receipt may name. */
  public static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");

  /** How far ahead of now a receipt may be dated. */
  public static final Duration AHEAD = Duration.ofDays(1);

  /** Longest message id, as {@code MessageId} texts never come near it. */
  public static final int MAX_ID_LENGTH = 200;

  /** Longest reason, user agent, address or provider event id. */
  public static final int MAX_TEXT_LENGTH = 2_000;

  private ReceiptLimits() {}

  /** Why {@code at} is outside the window around {@code now}, if it is. */
  public static Optional<String> timeProblem(Instant at, Instant now) {
    if (at.isBefore(EARLIEST)) return Optional.of(at + " is before " + EARLIEST);
    if (at.isAfter(now.plus(AHEAD)))
      return Optional.of(at + " is more than " + AHEAD.toHours() + " hours ahead of now");
    return Optional.empty();
  }

  /** Why {@code text} cannot be stored, if it cannot: a NUL character, or longer than {@code max}. */
  public static Optional<String> textProblem(String text, int max) {
    if (text.indexOf('\u0000') >= 0) return Optional.of("contains a NUL character (\\u0000)");
    if (text.length() > max) return Optional.of("longer than " + max + " characters");
    return Optional.empty();
  }

  /** The first field of {@code receipt} the store cannot hold, as {@code "field: why"}. */
  public static Optional<String> problem(Receipt receipt, Instant now) {
    return textProblem(receipt.messageId(), MAX_ID_LENGTH)
        .map(why -> "messageId: " + why)
        .or(() -> timeProblem(receipt.at(), now).map(why -> "timestamp: " + why))
        .or(() -> optionalText("reason", receipt.reason()))
        .or(() -> optionalText("userAgent", receipt.userAgent()))
        .or(() -> optionalText("sourceAddress", receipt.sourceAddress()))
        .or(() -> optionalText("eventId", receipt.eventId()));
  }

  private static Optional<String> optionalText(String field, Optional<String> value) {
    return value.flatMap(text -> textProblem(text, MAX_TEXT_LENGTH)).map(why -> field + ": " + why);
  }

  /**
   * Free text as a provider relays it (a bounce's reason, a client's user agent), made storable instead of
   * refused: it is only ever shown, and refusing it would set aside the status it came with. Each run of
   * control characters (NUL, CR, LF, ESC, ...) becomes one space, a lone UTF-16 surrogate U+FFFD, the
   * ends are trimmed and the rest cut to {@link #MAX_TEXT_LENGTH}; nothing left is no text.
   */
  public static Optional<String> freeText(Optional<String> text) {
    return text.map(ReceiptLimits::cleaned).filter(clean -> !clean.isEmpty());
  }

  private static String cleaned(String text) {
    var out = new StringBuilder(Math.min(text.length(), MAX_TEXT_LENGTH + 2));
    boolean gap = false;
    // past the limit nothing more is kept, so nothing more is read
    for (int i = 0, n = text.length(); i < n && out.length() <= MAX_TEXT_LENGTH; i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)) {
        gap = true;
        continue;
      }
      if (gap && !out.isEmpty()) out.append(' ');
      gap = false;
      boolean paired = Character.isHighSurrogate(c)
          ? i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))
          : Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
      out.append(Character.isSurrogate(c) && !paired ? '\uFFFD' : c);
    }
    String clean = out.toString().strip();
    if (clean.length() <= MAX_TEXT_LENGTH) return clean;
    // a pair is kept whole or not at all
    int end = Character.isHighSurrogate(clean.charAt(MAX_TEXT_LENGTH - 1))
        ? MAX_TEXT_LENGTH - 1
        : MAX_TEXT_LENGTH;
    return clean.substring(0, end).strip();
  }

  /** {@code text} with NUL characters replaced and cut to {@code max}, for names that are only ever shown. */
  public static String printable(String text, int max) {
    String clean = text.replace('\u0000', '\uFFFD');
    return clean.length() > max ? clean.substring(0, max) : clean;
  }
}
