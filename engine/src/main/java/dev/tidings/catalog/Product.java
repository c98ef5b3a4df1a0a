package dev.tidings.catalog;

import dev.tidings.Problems;
import dev.tidings.WebUrl;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A product that emails can show: the fields and rules of the {@code products} import format.
 * Throws {@link dev.tidings.InvalidInputException} listing every broken rule.
 */
public record Product(
    String id,
    String title,
    Optional<String> brand,
    Optional<String> category,
    BigDecimal price,
    Currency currency,
    WebUrl imageUrl,
    WebUrl landingUrl,
    boolean available,
    Map<String, String> attributes) {

  public Product {
    var problems = new Problems();
    problems.id("id", id);
    problems.requiredText("title", title, 500);
    problems.optionalText("brand", brand, 200);
    problems.optionalText("category", category, 200);
    problems.nonNegative("price", price);
    problems.present("currency", currency);
    if (price != null && currency != null) {
      int digits =
          currency.getDefaultFractionDigits() < 0 ? 4 : currency.getDefaultFractionDigits();
      if (price.scale() > digits) {
        problems.add("price must have at most " + digits + " decimal places for "
            + currency.getCurrencyCode() + ", got " + price.toPlainString());
      }
    }
    problems.httpUrl("imageUrl", imageUrl);
    problems.httpUrl("landingUrl", landingUrl);
    if (attributes == null) {
      problems.add("missing required field 'attributes'");
    } else {
      for (var entry : attributes.entrySet()) {
        if (entry.getKey() == null || entry.getValue() == null)
          problems.add("attributes must map strings to strings");
      }
    }
    problems.throwIfAny();
    attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }
}
