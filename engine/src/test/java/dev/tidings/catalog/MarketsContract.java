package dev.tidings.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.WebUrl;
import dev.tidings.storage.Database;
import dev.tidings.storage.StoredRows;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What every database behind {@link Markets} must do. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class MarketsContract {
  private static final Market GB =
      new Market("GB", Currency.getInstance("GBP"), Locale.UK, List.of("GB", "IE"), true);
  private static final Market DE =
      new Market("DE", Currency.getInstance("EUR"), Locale.GERMANY, List.of("DE", "AT"), false);
  private static final Market US =
      new Market("US", Currency.getInstance("USD"), Locale.US, List.of("US"), false);

  private Database database;
  private CatalogService catalog;
  private Markets markets;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    var clock = InstantSource.fixed(Instant.parse("2025-01-01T00:00:00Z"));
    catalog = new CatalogService(database.jdbi(), clock);
    markets = new Markets(database.jdbi(), clock);
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database
        .jdbi()
        .useHandle(handle -> handle.execute("TRUNCATE products, product_prices, markets"));
  }

  private static Product product(String id, String price, String currency) {
    return new Product(
        id,
        "Title " + id,
        Optional.of("Acme"),
        Optional.empty(),
        new BigDecimal(price),
        Currency.getInstance(currency),
        WebUrl.of("https://img.example.com/" + id + ".jpg"),
        WebUrl.of("https://shop.example.com/" + id),
        true,
        Map.of());
  }

  @Test
  void a_market_reads_back_as_it_was_put_and_a_put_replaces_it() {
    markets.put(DE);
    markets.put(new Market(
        "DE", Currency.getInstance("EUR"), Locale.forLanguageTag("de-AT"), List.of("AT"), false));

    assertThat(markets.get("DE")).hasValueSatisfying(market -> {
      assertThat(market.locale()).isEqualTo(Locale.forLanguageTag("de-AT"));
      assertThat(market.countries()).containsExactly("AT");
    });
    assertThat(markets.get("FR")).isEmpty();
  }

  @Test
  void a_new_default_market_takes_the_flag_from_the_old_one() {
    markets.put(GB);
    markets.put(new Market("US", Currency.getInstance("USD"), Locale.US, List.of("US"), true));

    assertThat(markets.list())
        .extracting(Market::code, Market::isDefault)
        .containsExactly(Tuple.tuple("GB", false), Tuple.tuple("US", true));
  }

  @Test
  void a_product_is_sold_at_its_market_price_else_at_its_own_in_its_own_currency_else_not() {
    markets.put(GB);
    markets.put(DE);
    markets.put(US);
    catalog.put(product("boots", "80.00", "GBP"));
    catalog.put(product("scarf", "20.00", "EUR"));
    markets.putPrices("boots", Map.of("DE", new BigDecimal("94.99"), "US", new BigDecimal("99")));

    assertThat(markets.pricesIn(GB, List.of("boots", "scarf", "gone")))
        .isEqualTo(Map.of("boots", new BigDecimal("80.00")));
    assertThat(markets.pricesIn(DE, List.of("boots", "scarf")))
        .isEqualTo(Map.of("boots", new BigDecimal("94.99"), "scarf", new BigDecimal("20.00")));
    assertThat(markets.pricesIn(US, List.of("boots", "scarf")))
        .isEqualTo(Map.of("boots", new BigDecimal("99")));
    assertThat(markets.prices("boots")).containsOnlyKeys("DE", "US");
  }

  @Test
  void prices_for_an_unknown_market_or_too_many_decimals_are_refused_whole_naming_the_field() {
    markets.put(GB);
    catalog.put(product("boots", "80.00", "GBP"));
    markets.putPrices("boots", Map.of("GB", new BigDecimal("79.00")));

    assertThatThrownBy(() -> markets.putPrices(
            "boots", Map.of("XX", new BigDecimal("1"), "GB", new BigDecimal("1.234"))))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("prices.XX")
        .hasMessageContaining("prices.GB");
    assertThat(markets.prices("boots")).isEqualTo(Map.of("GB", new BigDecimal("79.00")));
  }

  @Test
  void deleting_a_product_or_a_market_deletes_its_prices() {
    markets.put(GB);
    markets.put(DE);
    catalog.put(product("boots", "80.00", "GBP"));
    markets.putPrices("boots", Map.of("DE", new BigDecimal("94.99")));

    assertThat(markets.delete("DE")).isTrue();
    assertThat(markets.prices("boots")).isEmpty();
    markets.putPrices("boots", Map.of("GB", new BigDecimal("70.00")));
    catalog.delete("boots");
    assertThat(markets.prices("boots")).isEmpty();
  }

  @Test
  void a_subscriber_belongs_to_the_market_they_name_else_their_countrys_else_the_default() {
    var all = List.of(DE, GB, US);

    assertThat(Markets.of(Optional.of("US"), Optional.of("DE"), all)).contains(US);
    assertThat(Markets.of(Optional.of("NOPE"), Optional.of("AT"), all)).contains(DE);
    assertThat(Markets.of(Optional.empty(), Optional.of("JP"), all)).contains(GB);
    assertThat(Markets.of(Optional.empty(), Optional.empty(), List.of(DE, US))).contains(DE);
    assertThat(Markets.of(Optional.empty(), Optional.of("DE"), List.of())).isEmpty();
  }

  @Test
  void a_market_with_a_bad_code_locale_or_country_names_each_field() {
    assertThatThrownBy(() ->
            new Market("g", Currency.getInstance("GBP"), Locale.ROOT, List.of("GB", "XX"), false))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("code")
        .hasMessageContaining("locale")
        .hasMessageContaining("countries");
  }

  @Test
  void markets_an_earlier_version_stored_are_read_by_today_s_lists_never_failing_the_others() {
    markets.put(new Market("GB", Currency.getInstance("GBP"), Locale.UK, List.of("GB"), true));
    // as an earlier version (or an older JDK's lists) let them be stored: straight into the table
    database.jdbi().useHandle(handle -> handle.execute("""
        INSERT INTO markets (code, currency, locale, countries, is_default, updated_at) VALUES
          ('EU', 'EUR', 'de-DE', '{DE,XX}', false, now()),
          ('OLD', 'ZZZ', 'en', '{}', false, now())"""));

    assertThat(markets.list()).extracting(Market::code).containsExactly("EU", "GB");
    assertThat(markets.get("EU").orElseThrow().countries()).containsExactly("DE");
    assertThat(markets.get("OLD")).isEmpty();
    var unreadable = StoredRows.of(database.jdbi());
    assertThat(unreadable.counted("markets", "countries")).isPositive();
    assertThat(unreadable.counted("markets", "currency")).isPositive();
  }
}
