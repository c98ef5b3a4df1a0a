package dev.tidings.app;

import dev.tidings.campaign.DigestSource;
import dev.tidings.campaign.EntryContext;
import dev.tidings.catalog.Price;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.SubscriberPrices;
import dev.tidings.journeys.EntryItems;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A journey email's entry products as cards: the journeys say which products and why, the catalogue
 * says what each is and costs in the reader's market. A product the market does not sell is left out.
 */
final class JourneyCards implements EntryContext {
  private final EntryItems items;
  private final Supplier<SubscriberPrices> prices;
  private final InstantSource clock;

  JourneyCards(EntryItems items, Supplier<SubscriberPrices> prices, InstantSource clock) {
    this.items = items;
    this.prices = prices;
    this.clock = clock;
  }

  @Override
  public Map<String, List<DigestSource.Notice>> cards(
      long campaignId, long runId, Collection<String> subscriberIds) {
    Map<String, EntryItems.Items> entries = items.of(campaignId, runId, subscriberIds);
    if (entries.isEmpty()) return Map.of();
    SubscriberPrices sold = prices.get();
    sold.prepare(entries.keySet());
    LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
    Map<String, List<DigestSource.Notice>> cards = new HashMap<>();
    entries.forEach((person, entry) -> {
      Map<String, Product> products = sold.of(person, entry.productIds()).products();
      List<DigestSource.Notice> notices = new ArrayList<>();
      for (String id : entry.productIds()) {
        Product product = products.get(id);
        if (product == null) continue;
        notices.add(new DigestSource.Notice(
            id,
            "product",
            entry.why(),
            product.title(),
            product.landingUrl().map(Object::toString),
            product.imageUrl().map(Object::toString),
            today,
            Optional.of(Price.of(product))));
      }
      if (!notices.isEmpty()) cards.put(person, notices);
    });
    return cards;
  }
}
