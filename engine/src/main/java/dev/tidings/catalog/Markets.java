package dev.tidings.catalog;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.storage.StoredRows;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Currency;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Markets and the prices of products in them (tables {@code markets} and {@code product_prices}). A
 * product's price in a market is its row for that market if it has one, else its own price when its
 * currency is the market's; otherwise it is not sold there, and no email of that market shows it.
 */
public final class Markets {
  private final Jdbi jdbi;
  private final InstantSource clock;

  public Markets(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  /**
   * Creates or replaces the market with this code; a default market takes the flag from the one that
   * had it, in the same transaction.
   */
  public Market put(Market market) {
    jdbi.useTransaction(handle -> {
      if (market.isDefault())
        handle
            .createUpdate(
                "UPDATE markets SET is_default = false WHERE is_default AND code <> :code")
            .bind("code", market.code())
            .execute();
      handle
          .createUpdate("""
              INSERT INTO markets (code, currency, locale, countries, is_default, updated_at)
              VALUES (:code, :currency, :locale, :countries, :isDefault, :now)
              ON CONFLICT (code) DO UPDATE SET currency = excluded.currency, locale = excluded.locale,
                countries = excluded.countries, is_default = excluded.is_default,
                updated_at = excluded.updated_at""")
          .bind("code", market.code())
          .bind("currency", market.currency().getCurrencyCode())
          .bind("locale", market.locale().toLanguageTag())
          .bindArray("countries", String.class, market.countries())
          .bind("isDefault", market.isDefault())
          .bind("now", Timestamp.from(clock.instant()))
          .execute();
    });
    return market;
  }

  public Optional<Market> get(String code) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT * FROM markets WHERE code = :code")
        .bind("code", code)
        .map(Markets::market)
        .findOne()
        .flatMap(market -> market));
  }

  /** Every market in code order: a handful, read whole. */
  public List<Market> list() {
    return jdbi.withHandle(handle ->
        handle
            .createQuery("SELECT * FROM markets ORDER BY code")
            .map(Markets::market)
            .list()
            .stream()
            .flatMap(Optional::stream)
            .toList());
  }

  /** True when a market was deleted (its prices go with it). */
  public boolean delete(String code) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("DELETE FROM markets WHERE code = :code")
            .bind("code", code)
            .execute()
        > 0);
  }

  /**
   * The market of a subscriber among {@code markets}: the one they name if it exists, else the first
   * listing their country, else the default one, else the first; empty when there are no markets.
   */
  public static Optional<Market> of(
      Optional<String> named, Optional<String> country, List<Market> markets) {
    if (named.isPresent())
      for (Market market : markets)
        if (market.code().equals(named.get())) return Optional.of(market);
    if (country.isPresent())
      for (Market market : markets)
        if (market.countries().contains(country.get())) return Optional.of(market);
    for (Market market : markets) if (market.isDefault()) return Optional.of(market);
    return markets.stream().findFirst();
  }

  /**
   * Replaces a product's market prices (an empty map removes them); a product that does not exist gets
   * none. Every market must exist and every
   * price fit its market's currency; the problems name the field {@code prices.CODE}.
   */
  public void putPrices(String productId, Map<String, BigDecimal> prices) {
    jdbi.useTransaction(handle -> {
      check(handle, prices);
      handle
          .createUpdate("DELETE FROM product_prices WHERE product_id = :id")
          .bind("id", productId)
          .execute();
      insertPrices(handle, productId, prices);
    });
  }

  /**
   * Sets the market prices of many products at once, in one transaction and one statement (a shop's
   * price list); each product keeps its prices in markets not named. Every problem is reported before
   * anything is written.
   */
  public void putAllPrices(Map<String, Map<String, BigDecimal>> byProduct) {
    if (byProduct.isEmpty()) return;
    List<String> products = new ArrayList<>();
    List<String> codes = new ArrayList<>();
    List<String> amounts = new ArrayList<>();
    byProduct.forEach((product, prices) -> prices.forEach((code, price) -> {
      products.add(product);
      codes.add(code);
      amounts.add(price == null ? null : price.toPlainString());
    }));
    jdbi.useTransaction(handle -> {
      Map<String, Currency> currencies = currencies(handle);
      var problems = new Problems();
      byProduct.values().forEach(prices -> problems(currencies, prices, problems));
      problems.throwIfAny();
      handle
          .createUpdate("""
              INSERT INTO product_prices (product_id, market, price)
              SELECT x.p, x.m, x.a::numeric FROM unnest(:products, :markets, :amounts) AS x(p, m, a)
                JOIN products ON products.id = x.p
              ON CONFLICT (product_id, market) DO UPDATE SET price = excluded.price""")
          .bindArray("products", String.class, products)
          .bindArray("markets", String.class, codes)
          .bindArray("amounts", String.class, amounts)
          .execute();
    });
  }

  /** A product's market prices, by market code. */
  public Map<String, BigDecimal> prices(String productId) {
    return jdbi.withHandle(handle -> {
      Map<String, BigDecimal> prices = new LinkedHashMap<>();
      handle
          .createQuery(
              "SELECT market, price FROM product_prices WHERE product_id = :id ORDER BY market")
          .bind("id", productId)
          .map((rs, ctx) -> Map.entry(rs.getString("market"), rs.getBigDecimal("price")))
          .forEach(row -> prices.put(row.getKey(), row.getValue()));
      return prices;
    });
  }

  /**
   * The prices in {@code market} of those of {@code productIds} that are sold there, in the market's
   * currency; a product not sold there (or unknown) has no entry.
   */
  public Map<String, BigDecimal> pricesIn(Market market, Collection<String> productIds) {
    if (productIds.isEmpty()) return Map.of();
    return jdbi.withHandle(handle -> {
      Map<String, BigDecimal> prices = new HashMap<>();
      handle
          .createQuery("""
              SELECT p.id, coalesce(mp.price, CASE WHEN p.currency = :currency THEN p.price END)
                       AS price
                FROM products p
                LEFT JOIN product_prices mp ON mp.product_id = p.id AND mp.market = :market
               WHERE p.id = ANY(:ids)""")
          .bind("currency", market.currency().getCurrencyCode())
          .bind("market", market.code())
          .bindArray("ids", String.class, productIds)
          .map((rs, ctx) ->
              Map.entry(rs.getString("id"), Optional.ofNullable(rs.getBigDecimal("price"))))
          .forEach(row -> row.getValue().ifPresent(price -> prices.put(row.getKey(), price)));
      return prices;
    });
  }

  static void insertPrices(Handle handle, String productId, Map<String, BigDecimal> prices) {
    if (prices.isEmpty()) return;
    handle
        .createUpdate("""
            INSERT INTO product_prices (product_id, market, price)
            SELECT :id, m, p::numeric FROM unnest(:markets, :prices) AS x(m, p)
             WHERE EXISTS (SELECT 1 FROM products WHERE id = :id)
            ON CONFLICT (product_id, market) DO UPDATE SET price = excluded.price""")
        .bind("id", productId)
        .bindArray("markets", String.class, List.copyOf(prices.keySet()))
        .bindArray(
            "prices",
            String.class,
            prices.values().stream().map(BigDecimal::toPlainString).toList())
        .execute();
  }

  /**
   * Replaces the market prices of the products {@code ids} with theirs in {@code pricesByProduct} (checked
   * before), in two statements on the caller's handle: a bulk import's price lists. Products that do not exist
   * get none.
   */
  static void replacePrices(
      Handle handle, List<String> ids, Map<String, Map<String, BigDecimal>> pricesByProduct) {
    if (ids.isEmpty()) return;
    List<String> products = new ArrayList<>();
    List<String> codes = new ArrayList<>();
    List<String> amounts = new ArrayList<>();
    for (String id : ids) {
      pricesByProduct.getOrDefault(id, Map.of()).forEach((code, price) -> {
        products.add(id);
        codes.add(code);
        amounts.add(price.toPlainString());
      });
    }
    handle
        .createUpdate("DELETE FROM product_prices WHERE product_id = ANY(:ids)")
        .bindArray("ids", String.class, ids)
        .execute();
    if (products.isEmpty()) return;
    handle
        .createUpdate("""
            INSERT INTO product_prices (product_id, market, price)
            SELECT x.p, x.m, x.a::numeric FROM unnest(:products, :markets, :amounts) AS x(p, m, a)
              JOIN products ON products.id = x.p""")
        .bindArray("products", String.class, products)
        .bindArray("markets", String.class, codes)
        .bindArray("amounts", String.class, amounts)
        .execute();
  }

  /** Every problem of a price map against the markets there are, each naming {@code prices.CODE}. */
  static void check(Handle handle, Map<String, BigDecimal> prices) {
    if (prices.isEmpty()) return;
    var problems = new Problems();
    problems(currencies(handle), prices, problems);
    problems.throwIfAny();
  }

  private static Optional<Currency> knownCurrency(String code) {
    try {
      return Optional.of(Currency.getInstance(code));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The currency of every market, by code. */
  static Map<String, Currency> currencies(Handle handle) {
    Map<String, Currency> currencies = new HashMap<>();
    handle
        .createQuery("SELECT code, currency FROM markets")
        .map((rs, ctx) ->
            Map.entry(rs.getString("code"), rs.getString("currency").trim()))
        // a currency this JDK does not know: its market is left out of reads too (see #market)
        .forEach(row -> knownCurrency(row.getValue())
            .ifPresent(currency -> currencies.put(row.getKey(), currency)));
    return currencies;
  }

  static void problems(
      Map<String, Currency> currencies, Map<String, BigDecimal> prices, Problems problems) {
    prices.forEach((code, price) -> {
      String field = "prices." + Problems.printable(String.valueOf(code));
      Currency currency = currencies.get(code);
      int digits = currency == null ? 0 : Math.max(0, currency.getDefaultFractionDigits());
      if (currency == null) {
        problems.add(Problem.unknown(
            field, field + " names no market (define it with PUT /api/v1/markets/{code})"));
      } else if (price == null || price.signum() < 0) {
        problems.add(Problem.range(field, field + " must be a price of zero or more"));
      } else if (price.scale() > digits) {
        problems.add(Problem.format(
            field,
            field + " must have at most " + digits + " decimal places for "
                + currency.getCurrencyCode() + ", got " + price.toPlainString()));
      }
    });
  }

  /**
   * A {@code markets} row as today's rules read it: a country the JDK's ISO 3166 list no longer has is
   * dropped from the market's countries; a row whose currency or locale today's rules refuse is left out
   * (its subscribers fall to the default market). Either is counted and logged once ({@link
   * StoredRows}); a PUT of the market puts it right.
   */
  private static Optional<Market> market(ResultSet rs, StatementContext ctx) throws SQLException {
    StoredRows report = StoredRows.of(ctx);
    String code = rs.getString("code");
    List<String> stored = Arrays.asList((String[]) rs.getArray("countries").getArray());
    List<String> countries = stored.stream().filter(Market::isCountry).toList();
    if (countries.size() < stored.size())
      report.fieldDropped(
          "markets",
          "countries",
          code,
          (stored.size() - countries.size()) + " code(s) not in this JDK's ISO 3166 list");
    Currency currency;
    try {
      currency = Currency.getInstance(rs.getString("currency").trim());
    } catch (IllegalArgumentException e) {
      report.rowLeftOut("markets", "currency", code, "not an ISO 4217 currency code");
      return Optional.empty();
    }
    try {
      return Optional.of(new Market(
          code,
          currency,
          Objects.requireNonNull(Locale.forLanguageTag(rs.getString("locale"))),
          countries,
          rs.getBoolean("is_default")));
    } catch (InvalidInputException e) {
      report.rowLeftOut("markets", "row", code, String.join("; ", e.problems()));
      return Optional.empty();
    }
  }

  /**
   * The product as a market sells it: its price there, in the market's currency, for cards and templates
   * that write a product's price.
   */
  public static Product priced(Product product, Market market, BigDecimal price) {
    // A sale is set on the product's own price; a market's own price list has no sales of its own.
    boolean ownPrice =
        market.currency().equals(product.currency()) && price.compareTo(product.price()) == 0;
    return new Product(
        product.id(),
        product.title(),
        product.brand(),
        product.category(),
        price,
        market.currency(),
        product.imageUrl(),
        product.landingUrl(),
        product.available(),
        product.attributes(),
        ownPrice ? product.salePrice() : Optional.empty(),
        product.itemGroupId());
  }
}
