package dev.tidings.catalog;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Products as one subscriber can buy them: priced in their market ({@link SubscriberMarkets}, {@link
 * Markets#priced}, the sale kept where it applies) when markets are defined, else at their own price. A
 * product the market does not sell, or the catalogue no longer holds, is left out. What an email's
 * digest tells and what the dashboard shows of an email are priced here alike.
 */
public final class SubscriberPrices {
  private final Function<Collection<String>, Map<String, Product>> products;
  private final Markets markets;
  private final SubscriberMarkets subscriberMarkets;

  /** @param products the catalogue's products among the ids, by id */
  public SubscriberPrices(
      Function<Collection<String>, Map<String, Product>> products,
      Markets markets,
      SubscriberMarkets subscriberMarkets) {
    this.products = products;
    this.markets = markets;
    this.subscriberMarkets = subscriberMarkets;
  }

  /** The products as sold, by id, and the market that sells them (empty: no markets defined). */
  public record AsSold(Map<String, Product> products, Optional<Market> market) {
    public AsSold {
      products = Map.copyOf(products);
    }
  }

  /** Finds the markets of many subscribers in one read, ahead of their {@link #of} calls. */
  public void prepare(Collection<String> subscriberIds) {
    subscriberMarkets.ofAll(subscriberIds);
  }

  public AsSold of(String subscriberId, Collection<String> productIds) {
    if (productIds.isEmpty()) return new AsSold(Map.of(), Optional.empty());
    Map<String, Product> known = products.apply(productIds);
    Optional<Market> market = subscriberMarkets.of(subscriberId);
    if (market.isEmpty() || known.isEmpty()) return new AsSold(known, market);
    Map<String, BigDecimal> inMarket = markets.pricesIn(market.get(), known.keySet());
    Map<String, Product> sold = HashMap.newHashMap(known.size());
    known.forEach((id, product) -> {
      BigDecimal price = inMarket.get(id);
      if (price != null) sold.put(id, Markets.priced(product, market.get(), price));
    });
    return new AsSold(sold, market);
  }
}
