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
 *
 * <p>{@code salePrice}, when given, is what the product costs now, below the regular {@code price} and
 * in the same currency (emails show the regular price struck through beside it). {@code itemGroupId}
 * names the group of variants (sizes, colours) the product is one of, as product feeds say it.
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
    Map<String, String> attributes,
    Optional<BigDecimal> salePrice,
    Optional<String> itemGroupId) {

  /** A product with no sale price and no item group. */
  public Product(
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
    this(
        id,
        title,
        brand,
        category,
        price,
        currency,
        imageUrl,
        landingUrl,
        available,
        attributes,
        Optional.empty(),
        Optional.empty());
  }

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
    if (salePrice == null) {
      problems.add("missing required field 'salePrice'");
    } else if (salePrice.isPresent()) {
      BigDecimal sale = salePrice.get();
      problems.nonNegative("salePrice", sale);
      if (price != null && sale.compareTo(price) >= 0) {
        problems.add("salePrice must be below price " + price.toPlainString() + ", got "
            + sale.toPlainString());
      }
      if (currency != null) {
        int digits =
            currency.getDefaultFractionDigits() < 0 ? 4 : currency.getDefaultFractionDigits();
        if (sale.scale() > digits) {
          problems.add("salePrice must have at most " + digits + " decimal places for "
              + currency.getCurrencyCode() + ", got " + sale.toPlainString());
        }
      }
    }
    problems.optionalText("itemGroupId", itemGroupId, 200);
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

  /** What the product costs now: the sale price when there is one, else the regular price. */
  public BigDecimal currentPrice() {
    return salePrice.orElse(price);
  }

  /** This product with the given sale price (empty: none). */
  public Product withSalePrice(Optional<BigDecimal> newSalePrice) {
    return new Product(
        id,
        title,
        brand,
        category,
        price,
        currency,
        imageUrl,
        landingUrl,
        available,
        attributes,
        newSalePrice,
        itemGroupId);
  }
}
