package dev.tidings.catalog;

import static dev.tidings.Problems.toValidate;
import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldSpec.required;
import static dev.tidings.imports.FieldType.TEXT;

import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.WebUrl;
import dev.tidings.imports.RowFields;
import dev.tidings.imports.RowMapper;
import dev.tidings.imports.RowSchema;
import java.math.BigDecimal;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A Google Merchant Center product feed's attributes (RSS/Atom {@code g:} elements or tab-separated columns)
 * into a {@link Product}; docs/feeds.md is the table of what goes where. Attributes Tidings shows or
 * filters on become the product's fields; the others it keeps ({@code description}, {@code gtin}, ...) go
 * into its attributes under their feed names.
 */
final class ProductFeedRows implements RowMapper<Product> {
  static final ProductFeedRows INSTANCE = new ProductFeedRows();

  private static final int ID = 0;
  private static final int TITLE = 1;
  private static final int LINK = 2;
  private static final int IMAGE_LINK = 3;
  private static final int PRICE = 4;
  private static final int SALE_PRICE = 5;
  private static final int AVAILABILITY = 6;
  private static final int BRAND = 7;
  private static final int PRODUCT_TYPE = 8;
  private static final int ITEM_GROUP_ID = 9;
  /** The first attribute kept as it is, under its feed name; every one from here on is. */
  private static final int FIRST_KEPT = 10;
  /** The attributes from {@link #FIRST_KEPT} on, in schema order, by their feed names. */
  private static final String[] KEPT = {
    "description", "additional_image_link", "google_product_category", "gtin", "mpn", "condition"
  };

  private static final RowSchema SCHEMA = RowSchema.of(
      required("id", TEXT),
      required("title", TEXT),
      required("link", TEXT),
      required("imageLink", TEXT),
      required("price", TEXT),
      optional("salePrice", TEXT),
      optional("availability", TEXT),
      optional("brand", TEXT),
      optional("productType", TEXT),
      optional("itemGroupId", TEXT),
      optional("description", TEXT),
      optional("additionalImageLink", TEXT),
      optional("googleProductCategory", TEXT),
      optional("gtin", TEXT),
      optional("mpn", TEXT),
      optional("condition", TEXT));

  private ProductFeedRows() {}

  @Override
  public RowSchema schema() {
    return SCHEMA;
  }

  @Override
  public Product map(RowFields row) {
    var problems = new Problems();
    Price price = price("price", row.text(PRICE), problems);
    Price sale = price("sale_price", row.text(SALE_PRICE), problems);
    if (price != null && sale != null && !price.currency().equals(sale.currency())) {
      problems.add(Problem.at(
          "sale_price",
          Problem.Rule.OTHER,
          "sale_price must be in the currency of price (" + price.currency() + "), got "
              + sale.currency()));
    }
    Boolean available = availability(row.text(AVAILABILITY), problems);
    WebUrl image = problems.parseUrl("image_link", row.text(IMAGE_LINK));
    WebUrl landing = problems.parseUrl("link", row.text(LINK));
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int kept = 0; kept < KEPT.length; kept++) {
      String value = row.text(FIRST_KEPT + kept);
      if (value != null) attributes.put(KEPT[kept], value);
    }
    String availability = row.text(AVAILABILITY);
    if (availability != null) attributes.put("availability", normalised(availability));
    return problems.build(() -> new Product(
        toValidate(row.text(ID)),
        toValidate(row.text(TITLE)),
        row.optionalText(BRAND),
        row.optionalText(PRODUCT_TYPE),
        toValidate(price == null ? null : price.amount()),
        toValidate(price == null ? null : price.currency()),
        toValidate(image),
        toValidate(landing),
        available == null || available,
        attributes,
        Optional.ofNullable(sale == null ? null : sale.amount()),
        row.optionalText(ITEM_GROUP_ID)));
  }

  /** An amount with its ISO 4217 currency, as a feed writes a price. */
  record Price(BigDecimal amount, Currency currency) {}

  /** {@code 15.00 USD} (the specification's form) or {@code USD 15.00}; null, with a problem, otherwise. */
  static @Nullable Price price(String field, @Nullable String text, Problems problems) {
    if (text == null) return null;
    String[] parts = text.strip().split("\\s+");
    if (parts.length == 2) {
      boolean codeLast = parts[1].length() == 3 && parts[1].chars().allMatch(Character::isLetter);
      String amount = codeLast ? parts[0] : parts[1];
      String code = (codeLast ? parts[1] : parts[0]).toUpperCase(Locale.ROOT);
      Currency currency = currency(code);
      BigDecimal value = amount(amount);
      if (currency != null && value != null) return new Price(value, currency);
    }
    problems.add(Problem.format(
        field,
        field + " must be an amount and an ISO 4217 currency such as '15.00 USD', got "
            + Problems.quote(text)));
    return null;
  }

  private static @Nullable Currency currency(String code) {
    try {
      return code.length() == 3 ? Currency.getInstance(code) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** A plain decimal within the bound on a price's digits ({@link Money#MAX_DIGITS}). */
  private static @Nullable BigDecimal amount(String text) {
    if (text.length() > 40) return null;
    try {
      BigDecimal value = new BigDecimal(text);
      if (!Money.withinBound(value)) return null;
      return value;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String normalised(String availability) {
    return availability.strip().toLowerCase(Locale.ROOT).replace(' ', '_');
  }

  /**
   * {@code in_stock}, {@code preorder} and {@code backorder} can be ordered, so emails may show them;
   * {@code out_of_stock} cannot. The specification's older spelling with a space ({@code in stock}) counts.
   */
  private static @Nullable Boolean availability(@Nullable String text, Problems problems) {
    if (text == null) return null;
    return switch (normalised(text)) {
      case "in_stock", "preorder", "backorder" -> Boolean.TRUE;
      case "out_of_stock" -> Boolean.FALSE;
      default -> {
        problems.add(Problem.unknown(
            "availability",
            "availability must be in_stock, out_of_stock, preorder or backorder, got "
                + Problems.quote(text)));
        yield null;
      }
    };
  }
}
