package dev.tidings.web.dashboard;

import dev.tidings.catalog.Product;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Products as an email's slots show them: picture, brand, title and price, in slot order. */
final class ProductCards {
  private ProductCards() {}

  static void render(StringBuilder body, List<String> ids, List<Optional<Product>> products) {
    body.append("<ol class=\"cards\">");
    for (int i = 0; i < ids.size(); i++) {
      var product = i < products.size() ? products.get(i) : Optional.<Product>empty();
      body.append("<li class=\"product\"><span class=\"slotno\">slot ")
          .append(i + 1)
          .append("</span>");
      if (product.isEmpty()) {
        body.append("<p>")
            .append(Html.escape(ids.get(i)))
            .append(" (no longer in the catalogue)</p></li>");
        continue;
      }
      var p = product.get();
      body.append("<img src=\"")
          .append(Html.escape(p.imageUrl().toString()))
          .append("\" alt=\"\" width=\"150\" height=\"150\">");
      p.brand()
          .ifPresent(brand ->
              body.append("<p class=\"brand\">").append(Html.escape(brand)).append("</p>"));
      body.append("<p class=\"title\">")
          .append(Html.escape(p.title()))
          .append("</p><p class=\"price\">")
          .append(Html.escape(String.format(
              Locale.ENGLISH, "%s %s", p.price().toPlainString(), p.currency().getCurrencyCode())))
          .append("</p></li>");
    }
    body.append("</ol>");
  }
}
