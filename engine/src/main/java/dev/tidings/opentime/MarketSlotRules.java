package dev.tidings.opentime;

import dev.tidings.catalog.Market;
import dev.tidings.catalog.Markets;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.SameProduct;
import dev.tidings.catalog.SubscriberMarkets;
import dev.tidings.message.MessageId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The slot rules of a node: an email's slots never show a product the email shows already (its digest's
 * items, the products its template names) nor one product twice, "the same product" being {@link
 * SameProduct#key}; and when markets are defined, only products sold in the subscriber's market. What a
 * campaign's template names is looked up once per campaign and kept a few minutes; the subscriber's
 * market is the catalogue's one answer ({@link SubscriberMarkets}), the one their digest is priced in.
 * A candidate the catalogue does not hold (deleted since the recommender saw it, or stored by an earlier
 * version in a way today's rules cannot read) is left out too: its slot would show the neutral card.
 */
public final class MarketSlotRules implements SlotRules {
  /**
   * Prometheus adds {@code _total}; label {@code reason}: {@code same_product}, {@code not_in_market}
   * or {@code not_in_catalogue}.
   */
  public static final String DROPPED = "tidings_opentime_slot_candidates_dropped";

  private static final Duration KEEP = Duration.ofMinutes(5);
  /** Candidates per slot: enough to fill the slots when a market sells only part of the catalogue. */
  private static final int CANDIDATES_PER_SLOT = 3;

  private final Function<MessageId, List<String>> digestItems;
  private final Function<Long, Set<String>> templateProducts;
  private final Function<Collection<String>, Map<String, Product>> products;
  private final Markets markets;
  private final SubscriberMarkets subscriberMarkets;
  private final RecentLookups<Long, Set<String>> byCampaign;
  private final Counter sameProduct;
  private final Counter notInMarket;
  private final Counter notInCatalogue;

  /**
   * @param digestItems what an email's digest told (product ids among them)
   * @param templateProducts the products a campaign's template names, looked up once per campaign
   * @param products the catalogue's products by id
   * @param markets the products' prices in a market
   * @param subscriberMarkets the market of each subscriber
   */
  public MarketSlotRules(
      Function<MessageId, List<String>> digestItems,
      Function<Long, Set<String>> templateProducts,
      Function<Collection<String>, Map<String, Product>> products,
      Markets markets,
      SubscriberMarkets subscriberMarkets,
      MeterRegistry metrics) {
    this.digestItems = digestItems;
    this.templateProducts = templateProducts;
    this.products = products;
    this.markets = markets;
    this.subscriberMarkets = subscriberMarkets;
    this.byCampaign =
        new RecentLookups<>(id -> Optional.of(this.templateProducts.apply(id)), KEEP, 10_000);
    this.sameProduct = dropped(metrics, "same_product");
    this.notInMarket = dropped(metrics, "not_in_market");
    this.notInCatalogue = dropped(metrics, "not_in_catalogue");
  }

  private static Counter dropped(MeterRegistry metrics, String reason) {
    return Counter.builder(DROPPED)
        .description(
            "slot candidates left out: the same product as one the email shows, not sold in"
                + " the subscriber's market, or not in the catalogue (gone, or unreadable)")
        .tag("reason", reason)
        .register(metrics);
  }

  @Override
  public int candidates(int slots) {
    return slots * CANDIDATES_PER_SLOT;
  }

  @Override
  public Set<String> alreadyShown(MessageId message) {
    Set<String> shown = new LinkedHashSet<>(digestItems.apply(message));
    shown.addAll(byCampaign.get(message.campaignId()).orElse(Set.of()));
    return shown;
  }

  /** The subscriber's market, empty when no markets are defined (then every product is sold). */
  public Optional<Market> marketOf(String subscriberId) {
    return subscriberMarkets.of(subscriberId);
  }

  @Override
  public List<String> admissible(MessageId message, List<String> candidates, Set<String> shown) {
    Set<String> ids = new LinkedHashSet<>(candidates);
    ids.addAll(shown);
    Map<String, Product> known = products.apply(ids);
    Set<String> keys = new HashSet<>();
    for (String id : shown) keys.add(key(id, known));
    Optional<Market> market = marketOf(message.subscriberId());
    Map<String, BigDecimal> prices =
        market.map(m -> markets.pricesIn(m, candidates)).orElse(Map.of());
    List<String> admitted = new ArrayList<>(candidates.size());
    for (String id : candidates) {
      if (!known.containsKey(id)) {
        notInCatalogue.increment();
      } else if (market.isPresent() && !prices.containsKey(id)) {
        notInMarket.increment();
      } else if (!keys.add(key(id, known))) {
        sameProduct.increment();
      } else {
        admitted.add(id);
      }
    }
    return admitted;
  }

  /** A product gone from the catalogue is its own key: it can still match itself. */
  private static String key(String id, Map<String, Product> known) {
    Product product = known.get(id);
    return product == null ? id : SameProduct.key(product);
  }
}
