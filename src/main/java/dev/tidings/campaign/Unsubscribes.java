package dev.tidings.campaign;

import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.audience.SuppressionService;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import java.time.InstantSource;
import java.util.Optional;

/**
 * One-click unsubscribes (RFC 8058) from the token in an email's {@code /u/{token}} URL: the token alone
 * names the subscriber, and unsubscribing puts their address on the suppression list, which every
 * audience and every email written afterwards checks. Looking a token up changes nothing.
 */
public final class Unsubscribes {
  private final TokenCodec tokens;
  private final SubscriberService subscribers;
  private final SuppressionService suppressions;
  private final InstantSource clock;

  public Unsubscribes(
      TokenCodec tokens,
      SubscriberService subscribers,
      SuppressionService suppressions,
      InstantSource clock) {
    this.tokens = tokens;
    this.subscribers = subscribers;
    this.suppressions = suppressions;
    this.clock = clock;
  }

  /** The subscriber a token names, if it is valid and they still exist; no state changes. */
  public Optional<Subscriber> whom(String token) {
    if (!(tokens.decode(token) instanceof TokenCodec.Verdict.Valid valid)) return Optional.empty();
    MessageToken message = valid.token();
    return subscribers.get(message.message().subscriberId());
  }

  /** Suppresses the address of the subscriber the token names; empty (nothing done) for a bad token. */
  public Optional<Suppression> unsubscribe(String token) {
    return whom(token)
        .map(subscriber -> suppressions.suppress(
            new Suppression(subscriber.email(), SuppressionReason.UNSUBSCRIBE, clock.instant())));
  }
}
