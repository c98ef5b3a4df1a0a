package dev.tidings.web.dashboard;

import dev.tidings.catalog.Product;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Products as an email's slots show them: picture, brand, title and price, in slot order. */
final class ProductCards {
  private ProductCards() {}

  /** The cards as the {@code cards} template shows them. */
  record View(List<Card> cards) {}

  /** One slot: its product, or the id of one that left the catalogue. */
  record Card(
      int number,
      boolean missing,
      String id,
      String image,
      List<String> brand,
      String title,
      String price) {}

  static View of(List<String> ids, List<Optional<Product>> products) {
    List<Card> cards = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      var product = i < products.size() ? products.get(i) : Optional.<Product>empty();
      if (product.isEmpty()) {
        cards.add(new Card(i + 1, true, ids.get(i), "", List.of(), "", ""));
        continue;
      }
      var p = product.get();
      cards.add(new Card(
          i + 1,
          false,
          p.id(),
          p.imageUrl().map(url -> url.value()).orElse(""),
          p.brand().stream().toList(),
          p.title(),
          String.format(
              Locale.ENGLISH, "%s %s", p.price().toPlainString(), p.currency().getCurrencyCode())));
    }
    return new View(cards);
  }

  static String render(List<String> ids, List<Optional<Product>> products) {
    return Templates.render("cards", of(ids, products));
  }
}
