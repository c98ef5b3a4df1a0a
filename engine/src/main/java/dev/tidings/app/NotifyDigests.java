package dev.tidings.app;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.DigestSource;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Market;
import dev.tidings.catalog.Markets;
import dev.tidings.catalog.Product;
import dev.tidings.message.MessageId;
import dev.tidings.notify.ContentType;
import dev.tidings.notify.Digest;
import dev.tidings.notify.Notifications;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The notify capability as the digests' source for campaigns. */
final class NotifyDigests implements DigestSource {
  /**
   * A system property for the fault suite only: a node started with it set to {@code true} halts (as
   * {@code kill -9} would stop it) right after the transport accepted its first digest email, before
   * the digest is marked told.
   */
  static final String HALT_BEFORE_FLUSH = "tidings.test.halt-before-digest-flush";

  private static final boolean HALT = Boolean.getBoolean(HALT_BEFORE_FLUSH);

  private final Notifications notifications;
  private final Supplier<CatalogService> catalog;
  private final Supplier<Markets> markets;
  private final Supplier<SubscriberService> subscribers;
  /** The markets change rarely; one read a minute serves every digest of a send. */
  private final LoadingCache<String, List<Market>> definedMarkets;

  /**
   * {@code catalog}: what the products told cost now (a digest shows their price and sale), in the
   * subscriber's market when markets are defined, so that a digest's prices are in one currency.
   */
  NotifyDigests(
      Notifications notifications,
      Supplier<CatalogService> catalog,
      Supplier<Markets> markets,
      Supplier<SubscriberService> subscribers) {
    this.notifications = notifications;
    this.catalog = catalog;
    this.markets = markets;
    this.subscribers = subscribers;
    this.definedMarkets = Caffeine.newBuilder()
        .expireAfterWrite(Duration.ofMinutes(1))
        .build(any -> this.markets.get().list());
  }

  @Override
  public Pending pending(String subscriberId, int lookBackDays) {
    Digest digest = notifications.digest(subscriberId, lookBackDays);
    List<String> productIds = digest.items().stream()
        .filter(item -> item.content().type() == ContentType.PRODUCT)
        .map(item -> item.content().id())
        .toList();
    Map<String, NoticePrice> prices = prices(subscriberId, productIds);
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
  public void sentByLostWorker(MessageId message, String note) {
    notifications.flushSentByLostWorker(note, message.campaignId(), message.runId());
  }

  /**
   * Each product's price as the subscriber's market sells it; with no markets, the product's own. A
   * product the market does not sell is told without a price.
   */
  private Map<String, NoticePrice> prices(String subscriberId, List<String> productIds) {
    if (productIds.isEmpty()) return Map.of();
    Map<String, Product> products = catalog.get().getAll(productIds);
    Optional<Market> market = marketOf(subscriberId);
    Map<String, NoticePrice> prices = new java.util.HashMap<>();
    if (market.isEmpty()) {
      products.forEach((id, product) -> prices.put(id, noticePrice(product)));
      return prices;
    }
    Map<String, BigDecimal> inMarket = markets.get().pricesIn(market.get(), products.keySet());
    products.forEach((id, product) -> {
      BigDecimal price = inMarket.get(id);
      if (price != null) prices.put(id, noticePrice(Markets.priced(product, market.get(), price)));
    });
    return prices;
  }

  private Optional<Market> marketOf(String subscriberId) {
    List<Market> defined = definedMarkets.get("");
    if (defined.isEmpty()) return Optional.empty();
    var placement = subscribers.get().placements(List.of(subscriberId)).get(subscriberId);
    return Markets.of(
        placement == null ? Optional.empty() : placement.market(),
        placement == null ? Optional.empty() : placement.country(),
        defined);
  }

  private static NoticePrice noticePrice(Product product) {
    return new NoticePrice(product.price(), product.salePrice(), product.currency());
  }
}
