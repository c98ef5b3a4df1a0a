package dev.tidings.notify;

import dev.tidings.campaign.DigestSource;
import dev.tidings.catalog.Price;
import dev.tidings.catalog.SubscriberPrices;
import dev.tidings.message.MessageId;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The notify capability as the digests' source for campaigns. */
public final class NotifyDigests implements DigestSource {
  /**
   * A system property for the fault suite only: a node started with it set to {@code true} halts (as
   * {@code kill -9} would stop it) right after the transport accepted its first digest email, before
   * the digest is marked told.
   */
  public static final String HALT_BEFORE_FLUSH = "tidings.test.halt-before-digest-flush";

  private static final boolean HALT = Boolean.getBoolean(HALT_BEFORE_FLUSH);

  private final Notifications notifications;
  private final Supplier<SubscriberPrices> prices;

  /**
   * {@code prices}: what the products told cost now (a digest shows their price and sale), in the
   * subscriber's market when markets are defined, so that a digest's prices are in one currency.
   */
  public NotifyDigests(Notifications notifications, Supplier<SubscriberPrices> prices) {
    this.notifications = notifications;
    this.prices = prices;
  }

  @Override
  public Pending pending(String subscriberId, int lookBackDays) {
    Digest digest = notifications.digest(subscriberId, lookBackDays);
    List<String> productIds = digest.items().stream()
        .filter(item -> item.content().type() == ContentType.PRODUCT)
        .map(item -> item.content().id())
        .toList();
    Map<String, Price> prices = prices(subscriberId, productIds);
    List<Notice> notices = digest.items().stream()
        .map(item -> new Notice(
            item.content().id(),
            item.content().type().wire(),
            item.kind().wire(),
            item.content().title(),
            item.content().url(),
            item.content().imageUrl(),
            item.day(),
            Optional.ofNullable(prices.get(item.content().id()))))
        .toList();
    return new Pending() {
      @Override
      public List<Notice> notices() {
        return notices;
      }

      @Override
      public void sent(MessageId message) {
        if (HALT) Runtime.getRuntime().halt(137);
        notifications.flushSent(digest, message.campaignId(), message.runId());
      }

      @Override
      public String note() {
        return notifications.handoverNote(digest);
      }
    };
  }

  @Override
  public void prepare(Collection<String> subscriberIds) {
    prices.get().prepare(subscriberIds);
  }

  @Override
  public void sentByLostWorker(MessageId message, String note) {
    notifications.flushSentByLostWorker(note, message.campaignId(), message.runId());
  }

  /**
   * Each product's price as the subscriber's market sells it (the market their slots are priced in);
   * with no markets, the product's own. A product the market does not sell is told without a price.
   */
  private Map<String, Price> prices(String subscriberId, List<String> productIds) {
    if (productIds.isEmpty()) return Map.of();
    Map<String, Price> prices = new HashMap<>();
    this.prices
        .get()
        .of(subscriberId, productIds)
        .products()
        .forEach((id, product) -> prices.put(id, Price.of(product)));
    return prices;
  }
}
