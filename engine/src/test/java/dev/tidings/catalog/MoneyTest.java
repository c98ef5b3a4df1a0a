package dev.tidings.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.WebUrl;
import java.math.BigDecimal;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MoneyTest {
  private static final Currency EUR = Currency.getInstance("EUR");
  private static final Currency GBP = Currency.getInstance("GBP");

  private static Money money(String amount, Currency currency) {
    return new Money(new BigDecimal(amount), currency);
  }

  @Test
  void english_puts_the_symbol_first_with_comma_grouping() {
    assertThat(money("1234.5", EUR).format(Locale.ENGLISH)).isEqualTo("€1,234.50");
  }

  @Test
  void german_puts_the_symbol_last_with_dot_grouping() {
    assertThat(money("1234.5", EUR).format(Locale.GERMAN)).isEqualTo("1.234,50\u00a0€");
  }

  @Test
  void the_currency_decides_the_decimals_not_the_locale() {
    assertThat(money("1234", Currency.getInstance("JPY")).format(Locale.GERMANY))
        .isEqualTo("1.234\u00a0¥");
    assertThat(money("9", GBP).format(Locale.UK)).isEqualTo("£9.00");
  }

  @Test
  void one_cached_format_serves_each_locale_and_currency_alike() {
    // the same locale in two currencies, then the first again: no format leaks into another
    assertThat(money("5", EUR).format(Locale.UK)).isEqualTo("€5.00");
    assertThat(money("5", GBP).format(Locale.UK)).isEqualTo("£5.00");
    assertThat(money("5", EUR).format(Locale.UK)).isEqualTo("€5.00");
  }

  @Test
  void formats_from_many_threads_at_once_stay_correct() {
    Map<String, Boolean> seen = new ConcurrentHashMap<>();
    IntStream.range(0, 2_000).parallel().forEach(i -> {
      String text = money(i + ".25", EUR).format(Locale.GERMAN);
      seen.put(text, text.equals(String.format(Locale.GERMAN, "%,d,25\u00a0€", i)));
    });
    assertThat(seen).hasSize(2_000).doesNotContainValue(false);
  }

  @Test
  void a_price_past_the_bound_is_refused_naming_the_bound() {
    assertThatThrownBy(() -> money("1e31", EUR))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("amount must have at most 30 digits before and after the decimal point");
    assertThatThrownBy(() -> money("0." + "1".repeat(31), EUR))
        .isInstanceOf(InvalidInputException.class);
    // a scale near Integer.MIN_VALUE must not wrap the digit count into a small number
    assertThatThrownBy(() -> money("1e2147483647", EUR)).isInstanceOf(InvalidInputException.class);
    assertThat(money("9".repeat(30) + "." + "9".repeat(30), EUR).amount().precision())
        .isEqualTo(60);
  }

  @Test
  void a_product_past_the_bound_is_refused_with_the_same_words() {
    assertThatThrownBy(() -> new Product(
            "p1",
            "Boots",
            Optional.empty(),
            Optional.empty(),
            new BigDecimal("1e40"),
            EUR,
            new WebUrl("https://shop.example/p1.png"),
            new WebUrl("https://shop.example/p1"),
            true,
            Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "price must have at most 30 digits before and after the decimal point");
  }

  @Test
  void a_price_on_sale_costs_the_sale_and_writes_the_regular_one_to_strike_through() {
    var price = new Price(money("89", EUR), Optional.of(money("69", EUR)));
    assertThat(price.onSale()).isTrue();
    assertThat(price.formatNow(Locale.GERMANY)).isEqualTo("69,00\u00a0€");
    assertThat(price.formatWas(Locale.GERMANY)).contains("89,00\u00a0€");
    var regular = new Price(money("89", EUR), Optional.empty());
    assertThat(regular.formatNow(Locale.GERMANY)).isEqualTo("89,00\u00a0€");
    assertThat(regular.formatWas(Locale.GERMANY)).isEmpty();
  }

  @Test
  void a_sale_in_another_currency_is_no_price() {
    assertThatThrownBy(() -> new Price(money("89", EUR), Optional.of(money("69", GBP))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void the_price_in_a_market_keeps_the_sale_only_at_the_products_own_price() {
    var product = new Product(
            "p1",
            "Boots",
            Optional.empty(),
            Optional.empty(),
            new BigDecimal("89.00"),
            EUR,
            new WebUrl("https://shop.example/p1.png"),
            new WebUrl("https://shop.example/p1"),
            true,
            Map.of())
        .withSalePrice(Optional.of(new BigDecimal("69.00")));
    var de = new Market("DE", EUR, Locale.GERMANY, List.of("DE"), true);
    var gb = new Market("GB", GBP, Locale.UK, List.of("GB"), false);

    var inDe = Price.of(Markets.priced(product, de, new BigDecimal("89.00")));
    var inGb = Price.of(Markets.priced(product, gb, new BigDecimal("79.00")));

    assertThat(inDe.formatNow(de.locale())).isEqualTo("69,00\u00a0€");
    assertThat(inDe.formatWas(de.locale())).contains("89,00\u00a0€");
    assertThat(inGb.onSale()).isFalse();
    assertThat(inGb.formatNow(gb.locale())).isEqualTo("£79.00");
  }
}
