package dev.tidings.opentime;

import dev.tidings.audience.SubscriberService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Market;
import dev.tidings.catalog.Markets;
import dev.tidings.catalog.Product;
import dev.tidings.message.MessageToken;
import dev.tidings.opentime.card.Card;
import dev.tidings.opentime.card.ProductCards;
import dev.tidings.storage.BatchedLookup;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the email-facing routes serve for a slot: the card of the product the email's list has in that
 * position, priced in the subscriber's market when markets are defined (the market's price, currency
 * and locale), else at its own price in the subscriber's locale (from the token; looked up for tokens
 * that carry none); the neutral card when the slot is beyond the list, the product is gone or the
 * market does not sell it. Products and locales are
 * looked up once a minute at most per node.
 */
public final class SlotImages {
  private final SlotChooser chooser;
  private final ProductCards cards;
  private final RecentLookups<String, Product> products;
  private final RecentLookups<String, Locale> locales;
  private final Optional<MarketSlotRules> markets;
  private final RecentLookups<String, BigDecimal> marketPrices;

  public SlotImages(
      SlotChooser chooser,
      ProductCards cards,
      CatalogService catalog,
      SubscriberService subscribers) {
    this(chooser, cards, catalog, subscribers, Optional.empty(), Optional.empty());
  }

  /**
   * With markets: each card shows the product's price in the subscriber's market, in its currency and
   * written in its locale; a product the market does not sell shows the neutral card.
   */
  public SlotImages(
      SlotChooser chooser,
      ProductCards cards,
      CatalogService catalog,
      SubscriberService subscribers,
      Optional<MarketSlotRules> rules,
      Optional<Markets> marketPrices) {
    this.chooser = chooser;
    this.markets = rules;
    this.marketPrices = new RecentLookups<>(
        key -> {
          int split = key.indexOf('/');
          String code = key.substring(0, split);
          String product = key.substring(split + 1);
          return marketPrices.flatMap(all -> all.get(code)
              .flatMap(
                  m -> Optional.ofNullable(all.pricesIn(m, List.of(product)).get(product))));
        },
        Duration.ofMinutes(1),
        100_000);
    this.cards = cards;
    this.products = new RecentLookups<>(catalog::get, Duration.ofMinutes(1), 100_000);
    // the locales of the new emails opened at the same moment are read in one query
    var batched =
        new BatchedLookup<String, Locale>("subscriber locales", subscribers::locales, 256, 2);
    this.locales = new RecentLookups<>(batched::get, Duration.ofMinutes(1), 100_000);
  }

  /** What a slot shows, and which product that is (empty for the neutral card). */
  public record Shown(Card card, Optional<String> productId) {}

  public Shown slot(MessageToken token, int slot) {
    Optional<Priced> priced = priced(token, slot);
    if (priced.isEmpty()) return new Shown(cards.generic(), Optional.empty());
    return new Shown(
        cards.card(priced.get().product(), priced.get().locale()),
        Optional.of(priced.get().product().id()));
  }

  /**
   * A slot's product as its card shows it: priced in the subscriber's market, in its currency and
   * locale, when markets are defined; else at its own price in the subscriber's locale.
   */
  public record Priced(Product product, Locale locale) {}

  /** What the slot's card shows; empty for the neutral card (beyond the list, gone, not sold). */
  public Optional<Priced> priced(MessageToken token, int slot) {
    if (slot < 0 || slot >= token.slots()) return Optional.empty();
    Optional<Product> product = list(token).productAt(slot).flatMap(products::get);
    if (product.isEmpty()) return Optional.empty();
    if (markets.isPresent()) {
      // the answer the chooser's rules had for this email: its placement is read once, not per slot
      Optional<Market> market = markets.get().marketOf(token.message().subscriberId());
      if (market.isPresent()) {
        Optional<BigDecimal> price =
            marketPrices.get(market.get().code() + "/" + product.get().id());
        return price.map(amount -> new Priced(
            Markets.priced(product.get(), market.get(), amount), market.get().locale()));
      }
    }
    Locale locale =
        token.locale().or(() -> locales.get(token.message().subscriberId())).orElse(Locale.ENGLISH);
    return Optional.of(new Priced(product.get(), locale));
  }

  public Card generic() {
    return cards.generic();
  }

  /** The product behind a slot's link, choosing the list if no image was fetched yet. */
  public Optional<Product> product(MessageToken token, int slot) {
    if (slot < 0 || slot >= token.slots()) return Optional.empty();
    return list(token).productAt(slot).flatMap(products::get);
  }

  /**
   * A test send's slots show what they would, but keep no list: a kept list counts as an open of the
   * campaign.
   */
  private ChosenSlots list(MessageToken token) {
    return token.message().counted() ? chooser.choose(token) : chooser.wouldChoose(token);
  }
}
