package dev.tidings.delivery.webhook;

import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptLimits;
import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.ReceiptSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one verified request's events became: receipts, and events that name no status we know or no
 * message of ours (kept apart and counted, never a failed batch).
 *
 * <p>An event the store could not hold (a time before 2000 or more than a day ahead, a NUL
 * character, an over-long text: {@link ReceiptLimits}) is kept apart the same way, as the unknown
 * event {@code refused:<field>} with the reason, instead of refusing the request: a provider
 * retries a refused request with the same events for days, so one bad event would keep its good
 * neighbours out for as long. Refused events are counted in {@code unknown_receipts} by field.
 */
public record Mapped(List<Receipt> receipts, List<Unmapped> unmapped) {
  /** Longest event type kept: the types are the provider's words, or ours. */
  static final int MAX_EVENT_TYPE = 200;

  public Mapped {
    receipts = List.copyOf(receipts);
    unmapped = List.copyOf(unmapped);
  }

  /**
   * An event kept as the provider sent it, with what it was called and the provider's id of it if
   * it has one. Both texts are made storable here (NUL replaced, the type cut short): they come
   * from the provider's body.
   */
  public record Unmapped(
      ReceiptSource source, String eventType, String rawEvent, Optional<String> eventId) {
    public Unmapped {
      Objects.requireNonNull(eventId, "eventId");
      eventType = ReceiptLimits.printable(eventType, MAX_EVENT_TYPE);
      rawEvent = ReceiptLimits.printable(rawEvent, Integer.MAX_VALUE);
      eventId = eventId.filter(
          id -> ReceiptLimits.textProblem(id, ReceiptLimits.MAX_TEXT_LENGTH).isEmpty());
    }

    public Unmapped(ReceiptSource source, String eventType, String rawEvent) {
      this(source, eventType, rawEvent, Optional.empty());
    }
  }

  /**
   * Hands everything to the sink, receipts first: when they cannot be queued the sink throws and the
   * provider retries the whole request, so the unknown ones are not counted twice.
   */
  public void handTo(ReceiptSink sink) {
    if (!receipts.isEmpty()) sink.accept(receipts);
    for (Unmapped event : unmapped)
      sink.unknown(event.source(), event.eventType(), event.rawEvent(), event.eventId());
  }

  /** Collects a request's results in event order. */
  public static final class Builder {
    private final List<Receipt> receipts = new ArrayList<>();
    private final List<Unmapped> unmapped = new ArrayList<>();
    private final Instant now;

    public Builder() {
      this(Instant.now());
    }

    /** With {@code now} the time a receipt may be at most a day ahead of. */
    public Builder(Instant now) {
      this.now = now;
    }

    /**
     * Takes {@code receipt}, its free text cleaned ({@link ReceiptLimits#freeText}), or keeps it as
     * refused when the store still could not hold it (a time out of range, an id no message has).
     */
    public Builder receipt(Receipt given) {
      Receipt receipt = new Receipt(
          given.messageId(),
          given.status(),
          given.at(),
          given.source(),
          ReceiptLimits.freeText(given.reason()),
          ReceiptLimits.freeText(given.userAgent()),
          given.sourceAddress(),
          given.providerSaysMachine(),
          given.eventId(),
          given.slot());
      Optional<String> problem = ReceiptLimits.problem(receipt, now);
      if (problem.isEmpty()) {
        receipts.add(receipt);
        return this;
      }
      String field = problem.get().substring(0, problem.get().indexOf(':'));
      unmapped.add(new Unmapped(
          receipt.source(),
          "refused:" + field,
          problem.get() + " (a " + receipt.status().wire() + " receipt of message "
              + ReceiptLimits.printable(receipt.messageId(), ReceiptLimits.MAX_ID_LENGTH) + ")",
          receipt.eventId()));
      return this;
    }

    public Builder unmapped(ReceiptSource source, String eventType, String rawEvent) {
      unmapped.add(new Unmapped(source, eventType, rawEvent));
      return this;
    }

    /** As {@link #unmapped(ReceiptSource, String, String)}, with the provider's id of the event. */
    public Builder unmapped(
        ReceiptSource source, String eventType, String rawEvent, Optional<String> eventId) {
      unmapped.add(new Unmapped(source, eventType, rawEvent, eventId));
      return this;
    }

    public Mapped build() {
      return new Mapped(receipts, unmapped);
    }
  }
}
