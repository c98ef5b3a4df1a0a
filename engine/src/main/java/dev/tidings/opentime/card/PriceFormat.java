package dev.tidings.opentime.card;

import java.math.BigDecimal;
import java.text.NumberFormat;
import java.util.Currency;
import java.util.Locale;

/** A price as the subscriber's locale writes an amount in the product's currency. */
final class PriceFormat {
  private PriceFormat() {}

  static String format(BigDecimal amount, Currency currency, Locale locale) {
    // A new format per call: NumberFormat is not thread-safe, and cards are rendered once then
    // cached.
    var format = NumberFormat.getCurrencyInstance(locale);
    format.setCurrency(currency);
    int digits = currency.getDefaultFractionDigits();
    if (digits >= 0) {
      format.setMinimumFractionDigits(digits);
      format.setMaximumFractionDigits(digits);
    }
    return format.format(amount);
  }
}
