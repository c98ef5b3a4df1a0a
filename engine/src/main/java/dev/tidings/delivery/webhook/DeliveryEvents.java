package dev.tidings.delivery.webhook;

import dev.tidings.InvalidInputException;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptLimits;
import dev.tidings.delivery.ReceiptSource;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * The generic {@code POST /api/v1/delivery-events} body: an array of {@code {"messageId", "status",
 * "timestamp", "reason"?, "userAgent"?}}. Every element is checked before any is taken, so a client
 * learns every mistake in one answer and a batch is never half written. What the store could not
 * hold is refused here, naming the field ({@link ReceiptLimits}: a time before 2000 or more than a
 * day ahead, a NUL character, an over-long text), so an accepted request never fails in the
 * consumer.
 */
public final class DeliveryEvents {
  /** 9999-12-31T23:59:59Z, the last second an ISO-8601 year of four digits can name. */
  private static final long LATEST_SECONDS = 253_402_300_799L;

  private static final String STATUSES = Arrays.stream(DeliveryStatus.values())
      .map(DeliveryStatus::wire)
      .collect(Collectors.joining(", "));

  private DeliveryEvents() {}

  /** The receipts of {@code body}; one may be at most a day ahead of {@code clock}'s now. */
  public static List<Receipt> parse(JsonNode body, InstantSource clock) {
    Instant now = clock.instant();
    if (!body.isArray())
      throw new InvalidInputException(List.of("expected a JSON array of delivery events"));
    if (body.isEmpty()) throw new InvalidInputException(List.of("the array holds no events"));
    var problems = new ArrayList<String>();
    var receipts = new ArrayList<Receipt>();
    for (int i = 0; i < body.size(); i++) {
      var before = problems.size();
      var receipt = receipt(body.get(i), "[" + i + "]", now, problems);
      if (problems.size() == before && receipt.isPresent()) receipts.add(receipt.get());
    }
    if (!problems.isEmpty()) throw new InvalidInputException(problems);
    return receipts;
  }

  private static Optional<Receipt> receipt(
      JsonNode event, String at, Instant now, List<String> problems) {
    if (!event.isObject()) {
      problems.add(at + ": not a JSON object");
      return Optional.empty();
    }
    Optional<String> messageId =
        optionalText(event, "messageId", ReceiptLimits.MAX_ID_LENGTH, at, problems);
    if (messageId.isEmpty() && !event.has("messageId")) problems.add(at + ".messageId: missing");
    Optional<DeliveryStatus> status = optionalText(
            event, "status", ReceiptLimits.MAX_TEXT_LENGTH, at, problems)
        .flatMap(text -> {
          var known = DeliveryStatus.ofWire(text);
          if (known.isEmpty())
            problems.add(at + ".status: '" + text + "' is not a status (" + STATUSES + ")");
          return known;
        });
    if (!event.has("status")) problems.add(at + ".status: missing");
    Optional<Instant> timestamp = timestamp(event.path("timestamp"), at, problems)
        .filter(time -> {
          var outside = ReceiptLimits.timeProblem(time, now);
          outside.ifPresent(why -> problems.add(at + ".timestamp: " + why));
          return outside.isEmpty();
        });
    Optional<String> reason =
        optionalText(event, "reason", ReceiptLimits.MAX_TEXT_LENGTH, at, problems);
    Optional<String> userAgent =
        optionalText(event, "userAgent", ReceiptLimits.MAX_TEXT_LENGTH, at, problems);
    if (messageId.isEmpty() || status.isEmpty() || timestamp.isEmpty()) return Optional.empty();
    return Optional.of(new Receipt(
        messageId.get(),
        status.get(),
        timestamp.get(),
        ReceiptSource.API,
        reason,
        userAgent,
        Optional.empty(),
        false,
        Optional.empty(),
        Optional.empty()));
  }

  private static Optional<String> optionalText(
      JsonNode event, String field, int maxLength, String at, List<String> problems) {
    JsonNode value = event.path(field);
    if (value.isMissingNode() || value.isNull()) return Optional.empty();
    if (!value.isString() || value.asString().isBlank()) {
      problems.add(at + "." + field + ": must be a non-empty string");
      return Optional.empty();
    }
    String text = value.asString().trim();
    var unstorable = ReceiptLimits.textProblem(text, maxLength);
    if (unstorable.isPresent()) {
      problems.add(at + "." + field + ": " + unstorable.get());
      return Optional.empty();
    }
    return Optional.of(text);
  }

  /** ISO-8601 with an offset ({@code 2026-05-01T10:00:00Z}) or unix seconds. */
  private static Optional<Instant> timestamp(JsonNode value, String at, List<String> problems) {
    if (value.isMissingNode() || value.isNull()) {
      problems.add(at + ".timestamp: missing");
      return Optional.empty();
    }
    if (value.isIntegralNumber()
        && value.canConvertToLong()
        && value.asLong() > 0
        && value.asLong() <= LATEST_SECONDS)
      return Optional.of(Instant.ofEpochSecond(value.asLong()));
    if (value.isString()) {
      Optional<Instant> utc = utc(value.asString());
      if (utc.isPresent()) return utc;
      try {
        return Optional.of(OffsetDateTime.parse(value.asString()).toInstant());
      } catch (DateTimeParseException e) {
        // reported below
      }
    }
    problems.add(at + ".timestamp: expected an ISO-8601 time with offset such as"
        + " 2026-05-01T10:00:00Z, or unix seconds, but was " + value);
    return Optional.empty();
  }

  /**
   * The shape nearly every client sends, {@code 2026-05-01T10:00:00[.fraction]Z}, read without a
   * formatter: a batch's thousand timestamps through {@code DateTimeFormatter} cost more than the
   * rest of reading it. Anything else, valid or not, is left to {@link OffsetDateTime#parse}, so
   * what is accepted and what it means do not change.
   */
  static Optional<Instant> utc(String text) {
    int length = text.length();
    if (length < 20 || length > 30 || text.charAt(length - 1) != 'Z') return Optional.empty();
    if (text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':') return Optional.empty();
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 7);
    int day = digits(text, 8, 10);
    int hour = digits(text, 11, 13);
    int minute = digits(text, 14, 16);
    int second = digits(text, 17, 19);
    if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0)
      return Optional.empty();
    int nanos = 0;
    if (length > 20) {
      int fraction = length - 21;
      if (text.charAt(19) != '.' || fraction < 1 || fraction > 9) return Optional.empty();
      nanos = digits(text, 20, length - 1);
      if (nanos < 0) return Optional.empty();
      for (int i = fraction; i < 9; i++) nanos *= 10;
    }
    try {
      return Optional.of(LocalDateTime.of(year, month, day, hour, minute, second, nanos)
          .toInstant(ZoneOffset.UTC));
    } catch (DateTimeException notADate) {
      return Optional.empty();
    }
  }

  /** The decimal number in {@code text[from, to)}, or -1 when a character is not a digit. */
  private static int digits(String text, int from, int to) {
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') return -1;
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
