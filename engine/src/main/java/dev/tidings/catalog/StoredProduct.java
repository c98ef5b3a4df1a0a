package dev.tidings.catalog;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problems;
import dev.tidings.WebUrl;
import dev.tidings.storage.StoredRows;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;

/**
 * A {@code products} row as stored, checked against today's rules. A row an earlier version wrote may
 * break them (a URL the stricter {@link WebUrl} refuses): the field it can do without is dropped
 * (a URL, the sale price, brand, category, item group, attributes), so the product still lists and
 * still fills a slot; a row that breaks a rule of a field it cannot do without (id, title, price,
 * currency) is left out. {@link ProductRepair} clears the dropped fields in the table.
 *
 * @param dropped the columns read as absent, each with why
 * @param unreadable why the row is left out; empty when {@code product} is present
 */
record StoredProduct(
    String id, Optional<Product> product, List<Finding> dropped, Optional<Finding> unreadable) {
  static final String TABLE = "products";

  /** A column of the row and the rule it breaks (never its value). */
  record Finding(String column, String reason) {}

  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  /**
   * The product of the current row, told to the database's {@link StoredRows} when it breaks today's
   * rules; empty when it cannot be read at all.
   */
  static Optional<Product> read(ResultSet rs, StoredRows report) throws SQLException {
    StoredProduct row = of(rs);
    for (Finding finding : row.dropped())
      report.fieldDropped(TABLE, finding.column(), row.id(), finding.reason());
    row.unreadable()
        .ifPresent(
            finding -> report.rowLeftOut(TABLE, finding.column(), row.id(), finding.reason()));
    return row.product();
  }

  /** The current row of a query of {@link ProductTable#READ_COLUMNS}, checked. */
  static StoredProduct of(ResultSet rs) throws SQLException {
    String id = rs.getString("id");
    String title = rs.getString("title");
    List<Finding> dropped = new ArrayList<>(1);
    Optional<String> brand = text(rs.getString("brand"), "brand", 200, dropped);
    Optional<String> category = text(rs.getString("category"), "category", 200, dropped);
    Optional<String> group = text(rs.getString("item_group_id"), "item_group_id", 200, dropped);
    Optional<WebUrl> image = url(rs.getString("image_url"), "image_url", dropped);
    Optional<WebUrl> landing = url(rs.getString("landing_url"), "landing_url", dropped);
    Map<String, String> attributes = attributes(rs.getString("attributes"), dropped);

    Optional<String> badId = rule(problems -> problems.id("id", id));
    if (badId.isPresent()) return left(id, dropped, "id", badId.get());
    Optional<String> badTitle = rule(problems -> problems.requiredText("title", title, 500));
    if (badTitle.isPresent()) return left(id, dropped, "title", badTitle.get());
    @Nullable Currency currency = currency(rs.getString("currency"));
    if (currency == null) return left(id, dropped, "currency", "not an ISO 4217 currency code");
    BigDecimal price = rs.getBigDecimal("price");
    int digits = fractionDigits(currency);
    if (price.scale() > digits)
      return left(id, dropped, "price", "more than " + digits + " decimal places for " + currency);
    Optional<BigDecimal> sale = Optional.ofNullable(rs.getBigDecimal("sale_price"));
    if (sale.isPresent() && sale.get().scale() > digits) {
      dropped.add(
          new Finding("sale_price", "more than " + digits + " decimal places for " + currency));
      sale = Optional.empty();
    }
    try {
      var product = new Product(
          id,
          title,
          brand,
          category,
          price,
          currency,
          image,
          landing,
          rs.getBoolean("available"),
          attributes,
          sale,
          group);
      return new StoredProduct(id, Optional.of(product), List.copyOf(dropped), Optional.empty());
    } catch (InvalidInputException e) {
      // a rule this reader does not know to drop a field for
      return left(id, dropped, "row", String.join("; ", e.problems()));
    }
  }

  private static StoredProduct left(
      String id, List<Finding> dropped, String column, String reason) {
    return new StoredProduct(
        id, Optional.empty(), List.copyOf(dropped), Optional.of(new Finding(column, reason)));
  }

  /** The problem today's rule finds, if any. */
  private static Optional<String> rule(Consumer<Problems> check) {
    var problems = new Problems();
    check.accept(problems);
    return problems.list().stream().findFirst();
  }

  private static Optional<String> text(
      @Nullable String value, String column, int max, List<Finding> dropped) {
    if (value == null) return Optional.empty();
    Optional<String> problem = rule(problems -> problems.text(column, value, max));
    if (problem.isEmpty()) return Optional.of(value);
    dropped.add(new Finding(column, problem.get()));
    return Optional.empty();
  }

  /** NULL is a URL a repair cleared: absent, and nothing to report. */
  private static Optional<WebUrl> url(@Nullable String text, String column, List<Finding> dropped) {
    if (text == null) return Optional.empty();
    Optional<String> problem = WebUrl.problem(text);
    if (problem.isEmpty()) return Optional.of(new WebUrl(text));
    dropped.add(new Finding(column, problem.get()));
    return Optional.empty();
  }

  private static Map<String, String> attributes(@Nullable String json, List<Finding> dropped) {
    if (json == null) return Map.of();
    try {
      Map<String, String> read = Json.MAPPER.readValue(json, STRING_MAP);
      if (!read.containsKey(null) && !read.containsValue(null)) return read;
    } catch (JacksonException e) {
      // reported below
    }
    dropped.add(new Finding("attributes", "must map strings to strings"));
    return Map.of();
  }

  private static @Nullable Currency currency(@Nullable String code) {
    if (code == null) return null;
    try {
      return Currency.getInstance(code.trim());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static int fractionDigits(Currency currency) {
    return currency.getDefaultFractionDigits() < 0 ? 4 : currency.getDefaultFractionDigits();
  }
}
