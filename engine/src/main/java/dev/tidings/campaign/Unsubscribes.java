package dev.tidings.campaign;

import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.send.SendReceipt;
import dev.tidings.campaign.send.Sends;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import java.time.InstantSource;
import java.util.Optional;

/**
 * One-click unsubscribes (RFC 8058) from the token in an email's {@code /u/{token}} URL: the token alone
 * names the subscriber, and unsubscribing puts their address on the suppression list, which every
 * audience and every email written afterwards checks, and reporting it as the email's receipt, so the
 * campaign's funnel counts it. Looking a token up changes nothing. A test send's token (run {@link
 * MessageId#UNCOUNTED_RUN}) unsubscribes nobody: that email went to whoever tested it, not to the
 * subscriber it was written as.
 */
public final class Unsubscribes {
  private final TokenCodec tokens;
  private final SubscriberService subscribers;
  private final SuppressionService suppressions;
  private final Sends sends;
  private final InstantSource clock;

  public Unsubscribes(
      TokenCodec tokens,
      SubscriberService subscribers,
      SuppressionService suppressions,
      Sends sends,
      InstantSource clock) {
    this.tokens = tokens;
    this.subscribers = subscribers;
    this.suppressions = suppressions;
    this.sends = sends;
    this.clock = clock;
  }

  /** The subscriber a token names, if it is valid and they still exist; no state changes. */
  public Optional<Subscriber> whom(String token) {
    if (!(tokens.decode(token) instanceof TokenCodec.Verdict.Valid valid)) return Optional.empty();
    MessageToken message = valid.token();
    if (!message.message().counted()) return Optional.empty();
    return subscribers.get(message.message().subscriberId());
  }

  /**
   * Suppresses the address of the subscriber the token names and reports the unsubscribe as the
   * email's receipt; empty (nothing done) for a bad token. Repeating it is harmless: the suppression
   * is kept once and the funnel counts each email's unsubscribe once.
   */
  public Optional<Suppression> unsubscribe(String token) {
    if (!(tokens.decode(token) instanceof TokenCodec.Verdict.Valid valid)) return Optional.empty();
    MessageId message = valid.token().message();
    if (!message.counted()) return Optional.empty();
    return subscribers.get(message.subscriberId()).map(subscriber -> {
      var suppression = suppressions.suppress(
          new Suppression(subscriber.email(), SuppressionReason.UNSUBSCRIBE, clock.instant()));
      sends.report(new SendReceipt(
          message.text(),
          SendReceipt.Status.UNSUBSCRIBED,
          clock.instant(),
          "one-click unsubscribe"));
      return suppression;
    });
  }
}
