package dev.tidings.catalog;

import static dev.tidings.imports.FieldSpec.optional;
import static dev.tidings.imports.FieldType.STRING_MAP;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.imports.FieldSpec;
import dev.tidings.imports.RowFields;
import dev.tidings.imports.RowMapper;
import dev.tidings.imports.RowSchema;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The {@code products} import format: the product's fields ({@link ProductRows}) and its market prices,
 * {@code prices}, an object of decimal strings by market code (in CSV its JSON text in one cell, as
 * {@code attributes}). The prices are checked as {@link Markets#putPrices} checks them, against the markets
 * there were when the import started, so that a bad price is a row error at its line.
 */
final class ProductImportRows implements RowMapper<ProductImportRow> {
  static final int PRICES = ProductRows.ITEM_GROUP_ID + 1;

  private static final RowSchema SCHEMA = RowSchema.of(Stream.concat(
          ProductRows.INSTANCE.schema().fields().stream(),
          Stream.of(optional("prices", STRING_MAP)))
      .toArray(FieldSpec[]::new));

  private final Map<String, Currency> marketCurrencies;

  /** {@code marketCurrencies}: the currency of every market, by code. */
  ProductImportRows(Map<String, Currency> marketCurrencies) {
    this.marketCurrencies = Map.copyOf(marketCurrencies);
  }

  @Override
  public RowSchema schema() {
    return SCHEMA;
  }

  @Override
  public ProductImportRow map(RowFields row) {
    var problems = new Problems();
    Product product = null;
    try {
      product = ProductRows.INSTANCE.map(row);
    } catch (InvalidInputException e) {
      e.asProblems().forEach(problems::add);
    }
    Map<String, String> given = row.stringMap(PRICES, problems);
    Map<String, BigDecimal> prices = given == null ? null : prices(given, problems);
    problems.throwIfAny();
    return new ProductImportRow(Problems.toValidate(product), Optional.ofNullable(prices));
  }

  private Map<String, BigDecimal> prices(Map<String, String> given, Problems problems) {
    var prices = new LinkedHashMap<String, BigDecimal>();
    var readable = new Problems();
    given.forEach((code, text) -> {
      String field = "prices." + Problems.printable(code);
      BigDecimal price;
      try {
        if (text.length() > 40) throw new NumberFormatException("longer than any price");
        price = new BigDecimal(text.strip());
      } catch (NumberFormatException e) {
        readable.add(Problem.format(
            field, field + " must be a decimal such as 12.99, got " + Problems.quote(text)));
        return;
      }
      // 1e999999 is 8 characters: bound the digits too,
      // before the message or PostgreSQL writes it out
      if (!Money.withinBound(price)) {
        readable.add(Money.tooManyDigits(field, text));
        return;
      }
      prices.put(code, price);
    });
    readable.found().forEach(problems::add);
    Markets.problems(marketCurrencies, prices, problems);
    return Collections.unmodifiableMap(prices);
  }
}
