package dev.tidings.mail;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A transport whose answers are counted by class in {@code tidings_mail_replies_total{class}}: {@code
 * 2xx} taken, {@code 4xx} a temporary refusal, {@code 5xx} a permanent one, {@code no_reply} no
 * connection or none before the data, {@code unknown} the connection died after the data, {@code
 * withheld} withdrawn by its sender. An alert on the share of 4xx or 5xx sees a provider throttling
 * or refusing before the campaign's totals do.
 */
public final class CountedMailTransport implements MailTransport {
  public static final String METRIC = "tidings_mail_replies";

  enum ReplyClass {
    OK("2xx"),
    TEMPORARY("4xx"),
    PERMANENT("5xx"),
    NO_REPLY("no_reply"),
    UNKNOWN("unknown"),
    WITHHELD("withheld");

    final String label;

    ReplyClass(String label) {
      this.label = label;
    }

    static ReplyClass of(SendResult result) {
      return switch (result) {
        case SendResult.Accepted accepted -> OK;
        case SendResult.Deferred deferred -> deferred.code() >= 400 ? TEMPORARY : NO_REPLY;
        case SendResult.Rejected rejected -> PERMANENT;
        case SendResult.Unknown unknown -> UNKNOWN;
        case SendResult.Withheld withheld -> WITHHELD;
      };
    }
  }

  private final MailTransport transport;
  private final Map<ReplyClass, Counter> replies;

  public CountedMailTransport(MailTransport transport, MeterRegistry registry) {
    this.transport = transport;
    this.replies = new EnumMap<>(ReplyClass.class);
    for (ReplyClass replyClass : ReplyClass.values())
      replies.put(
          replyClass,
          Counter.builder(METRIC)
              .description("Answers of the mail transport to each email, by reply class")
              .tag("class", replyClass.label)
              .register(registry));
  }

  /** The transport whose answers are counted. */
  public MailTransport transport() {
    return transport;
  }

  @Override
  public SendResult send(OutgoingEmail email, Handover handover) {
    SendResult result = transport.send(email, handover);
    Objects.requireNonNull(replies.get(ReplyClass.of(result))).increment();
    return result;
  }

  @Override
  public String describe() {
    return transport.describe();
  }

  @Override
  public Optional<String> problem() {
    return transport.problem();
  }

  @Override
  public void close() {
    transport.close();
  }
}
