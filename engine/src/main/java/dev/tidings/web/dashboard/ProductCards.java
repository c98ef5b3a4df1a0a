package dev.tidings.web.dashboard;

import dev.tidings.catalog.Price;
import dev.tidings.catalog.Product;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Products as an email's slots show them: picture, brand, title and price, in slot order, each priced as
 * its card was (in the subscriber's market, its sale beside the regular price struck through).
 */
final class ProductCards {
  private ProductCards() {}

  /** The cards as the {@code cards} template shows them. */
  record View(List<Card> cards) {}

  /**
   * One slot: its product, or the id of one the card could not show (gone from the catalogue, or not
   * sold in the subscriber's market).
   *
   * @param price what the product costs now
   * @param was on sale, the regular price (empty otherwise)
   */
  record Card(
      int number,
      boolean missing,
      String id,
      String image,
      List<String> brand,
      String title,
      String price,
      String was) {}

  /**
   * @param products each slot's product as the subscriber could buy it ({@code
   *     dev.tidings.catalog.SubscriberPrices}), empty where the slot's card was the neutral one
   * @param locale how the subscriber's cards write amounts (their market's locale, else their own)
   */
  static View of(List<String> ids, List<Optional<Product>> products, Locale locale) {
    List<Card> cards = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      var product = i < products.size() ? products.get(i) : Optional.<Product>empty();
      if (product.isEmpty()) {
        cards.add(new Card(i + 1, true, ids.get(i), "", List.of(), "", "", ""));
        continue;
      }
      var p = product.get();
      var price = Price.of(p);
      cards.add(new Card(
          i + 1,
          false,
          p.id(),
          p.imageUrl().map(url -> url.value()).orElse(""),
          p.brand().stream().toList(),
          p.title(),
          price.formatNow(locale),
          price.formatWas(locale).orElse("")));
    }
    return new View(cards);
  }

  static String render(List<String> ids, List<Optional<Product>> products, Locale locale) {
    return Templates.render("cards", of(ids, products, locale));
  }
}
