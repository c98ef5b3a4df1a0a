package dev.tidings.catalog;

import static dev.tidings.Problems.toValidate;
import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldSpec.required;
import static dev.tidings.imports.FieldType.BOOLEAN;
import static dev.tidings.imports.FieldType.DECIMAL;
import static dev.tidings.imports.FieldType.STRING_MAP;
import static dev.tidings.imports.FieldType.TEXT;

import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.WebUrl;
import dev.tidings.imports.RowFields;
import dev.tidings.imports.RowMapper;
import dev.tidings.imports.RowSchema;
import java.math.BigDecimal;
import java.util.Currency;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The {@code products} format: fields of a CSV row, a JSON line or an API body, into a {@link Product}. */
final class ProductRows implements RowMapper<Product> {
  static final ProductRows INSTANCE = new ProductRows();

  static final int ID = 0;
  static final int TITLE = 1;
  static final int BRAND = 2;
  static final int CATEGORY = 3;
  static final int PRICE = 4;
  static final int CURRENCY = 5;
  static final int IMAGE_URL = 6;
  static final int LANDING_URL = 7;
  static final int AVAILABLE = 8;
  static final int ATTRIBUTES = 9;
  static final int SALE_PRICE = 10;
  static final int ITEM_GROUP_ID = 11;

  private static final RowSchema SCHEMA = RowSchema.of(
      required("id", TEXT),
      required("title", TEXT),
      optional("brand", TEXT),
      optional("category", TEXT),
      required("price", DECIMAL),
      required("currency", TEXT),
      required("imageUrl", TEXT),
      required("landingUrl", TEXT),
      optional("available", BOOLEAN),
      optional("attributes", STRING_MAP),
      optional("salePrice", DECIMAL),
      optional("itemGroupId", TEXT));

  private ProductRows() {}

  @Override
  public RowSchema schema() {
    return SCHEMA;
  }

  @Override
  public Product map(RowFields row) {
    var problems = new Problems();
    BigDecimal price = row.decimal(PRICE, problems);
    Currency currency = currency(row.text(CURRENCY), problems);
    WebUrl image = problems.parseUrl("imageUrl", row.text(IMAGE_URL));
    WebUrl landing = problems.parseUrl("landingUrl", row.text(LANDING_URL));
    Boolean available = row.bool(AVAILABLE, problems);
    Map<String, String> attributes = row.stringMap(ATTRIBUTES, problems);
    BigDecimal salePrice = row.decimal(SALE_PRICE, problems);
    return problems.build(() -> new Product(
        toValidate(row.text(ID)),
        toValidate(row.text(TITLE)),
        row.optionalText(BRAND),
        row.optionalText(CATEGORY),
        toValidate(price),
        toValidate(currency),
        toValidate(image),
        toValidate(landing),
        available == null || available,
        attributes == null ? Map.of() : attributes,
        Optional.ofNullable(salePrice),
        row.optionalText(ITEM_GROUP_ID)));
  }

  static @Nullable Currency currency(@Nullable String code, Problems problems) {
    if (code == null) return null;
    try {
      if (code.length() == 3) return Currency.getInstance(code);
    } catch (IllegalArgumentException e) {
      // reported below
    }
    problems.add(Problem.unknown(
        "currency", "currency must be an ISO 4217 code such as EUR, got " + Problems.quote(code)));
    return null;
  }
}
