package dev.tidings.catalog;

import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.WebUrl;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A product that emails can show: the fields and rules of the {@code products} import format.
 * Throws {@link dev.tidings.InvalidInputException} listing every broken rule.
 *
 * <p>{@code salePrice}, when given, is what the product costs now, below the regular {@code price} and
 * in the same currency (emails show the regular price struck through beside it). {@code itemGroupId}
 * names the group of variants (sizes, colours) the product is one of, as product feeds say it.
 *
 * <p>Every write gives both URLs. A product read from storage may lack one: a row an earlier version
 * stored with a URL today's rules refuse is read without it (and {@code tidings migrate} clears it), so
 * its card shows no picture, or its link goes to the shop's home page.
 */
public record Product(
    String id,
    String title,
    Optional<String> brand,
    Optional<String> category,
    BigDecimal price,
    Currency currency,
    Optional<WebUrl> imageUrl,
    Optional<WebUrl> landingUrl,
    boolean available,
    Map<String, String> attributes,
    Optional<BigDecimal> salePrice,
    Optional<String> itemGroupId) {

  /**
   * A product as a write gives it: both URLs are required (a missing one is reported with every other
   * problem).
   */
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
      Map<String, String> attributes,
      Optional<BigDecimal> salePrice,
      Optional<String> itemGroupId) {
    this(
        id,
        title,
        brand,
        category,
        price,
        currency,
        given(imageUrl),
        given(landingUrl),
        available,
        attributes,
        salePrice,
        itemGroupId);
  }

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
    if (price != null && !Money.withinBound(price)) problems.add(Money.tooManyDigits("price"));
    problems.present("currency", currency);
    if (price != null && currency != null) {
      int digits =
          currency.getDefaultFractionDigits() < 0 ? 4 : currency.getDefaultFractionDigits();
      if (price.scale() > digits) {
        problems.add(Problem.format(
            "price",
            "price must have at most " + digits + " decimal places for "
                + currency.getCurrencyCode() + ", got " + price.toPlainString()));
      }
    }
    if (salePrice == null) {
      problems.add(Problem.missing("salePrice"));
    } else if (salePrice.isPresent()) {
      BigDecimal sale = salePrice.get();
      problems.nonNegative("salePrice", sale);
      if (!Money.withinBound(sale)) problems.add(Money.tooManyDigits("salePrice"));
      if (price != null && sale.compareTo(price) >= 0) {
        problems.add(Problem.range(
            "salePrice",
            "salePrice must be below price " + price.toPlainString() + ", got "
                + sale.toPlainString()));
      }
      if (currency != null) {
        int digits =
            currency.getDefaultFractionDigits() < 0 ? 4 : currency.getDefaultFractionDigits();
        if (sale.scale() > digits) {
          problems.add(Problem.format(
              "salePrice",
              "salePrice must have at most " + digits + " decimal places for "
                  + currency.getCurrencyCode() + ", got " + sale.toPlainString()));
        }
      }
    }
    problems.optionalText("itemGroupId", itemGroupId, 200);
    problems.present("imageUrl", imageUrl);
    problems.present("landingUrl", landingUrl);
    if (attributes == null) {
      problems.add(Problem.missing("attributes"));
    } else {
      for (var entry : attributes.entrySet()) {
        if (entry.getKey() == null || entry.getValue() == null)
          problems.add(Problem.format("attributes", "attributes must map strings to strings"));
      }
    }
    problems.throwIfAny();
    attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }

  /** A URL as a write gives it: a missing one reaches the constructor's check as a missing field. */
  private static Optional<WebUrl> given(@Nullable WebUrl url) {
    return url == null ? Problems.toValidate(null) : Optional.of(url);
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
