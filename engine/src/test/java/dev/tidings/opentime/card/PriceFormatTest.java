package dev.tidings.opentime.card;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class PriceFormatTest {
  private static final Currency EUR = Currency.getInstance("EUR");

  @Test
  void english_puts_the_symbol_first_with_comma_grouping() {
    assertThat(PriceFormat.format(new BigDecimal("1234.5"), EUR, Locale.ENGLISH))
        .isEqualTo("€1,234.50");
  }

  @Test
  void german_puts_the_symbol_last_with_dot_grouping() {
    assertThat(PriceFormat.format(new BigDecimal("1234.5"), EUR, Locale.GERMAN))
        .isEqualTo("1.234,50\u00a0€");
  }

  @Test
  void the_currency_decides_the_decimals_not_the_locale() {
    assertThat(
            PriceFormat.format(new BigDecimal("1234"), Currency.getInstance("JPY"), Locale.GERMANY))
        .isEqualTo("1.234\u00a0¥");
  }
}
