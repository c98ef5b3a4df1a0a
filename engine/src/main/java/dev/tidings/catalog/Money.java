package dev.tidings.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.Problems;
import java.math.BigDecimal;
import java.text.NumberFormat;
import java.util.Currency;
import java.util.Locale;
import java.util.Objects;

/**
 * An amount in a currency, as every price in Tidings is: the one bound on a price's digits, checked
 * where prices enter, and the one way a price is written for a reader (an email's digest, a slot's
 * card, the dashboard), as the reader's locale writes an amount in this currency with the currency's
 * own decimals. Throws {@link InvalidInputException} for an amount past the bound.
 */
public record Money(BigDecimal amount, Currency currency) {
  /**
   * Digits a price may have before, and after, its decimal point: past it a number is no price, and
   * short text such as {@code 1e999999} would take megabytes to write out.
   */
  public static final int MAX_DIGITS = 30;

  /** Formats by locale and currency: a handful in use, a bound in case tokens bring odd locales. */
  private static final Cache<FormatKey, NumberFormat> FORMATS =
      Caffeine.newBuilder().maximumSize(1_000).build();

  public Money {
    Objects.requireNonNull(currency, "currency");
    if (amount == null) throw new InvalidInputException(Problem.missing("amount"));
    if (!withinBound(amount)) throw new InvalidInputException(tooManyDigits("amount"));
  }

  /** Whether {@code amount} has at most {@link #MAX_DIGITS} digits on either side of the point. */
  public static boolean withinBound(BigDecimal amount) {
    // in long: a scale near Integer.MIN_VALUE would wrap the difference in int
    return (long) amount.precision() - amount.scale() <= MAX_DIGITS && amount.scale() <= MAX_DIGITS;
  }

  /** The problem of a price past the bound, at its field. */
  public static Problem tooManyDigits(String field) {
    return Problem.range(field, bound(field));
  }

  /** The problem of a price past the bound, at its field, with the text given. */
  public static Problem tooManyDigits(String field, String given) {
    return Problem.range(field, bound(field) + ", got " + Problems.quote(given));
  }

  private static String bound(String field) {
    return field + " must have at most " + MAX_DIGITS
        + " digits before and after the decimal point";
  }

  /** This amount as {@code locale} writes it in this currency, with the currency's own decimals. */
  public String format(Locale locale) {
    NumberFormat prototype = FORMATS.get(new FormatKey(locale, currency), Money::currencyFormat);
    // NumberFormat is not thread-safe: each call formats with its own copy of the cached one
    return ((NumberFormat) prototype.clone()).format(amount);
  }

  private static NumberFormat currencyFormat(FormatKey key) {
    var format = NumberFormat.getCurrencyInstance(key.locale());
    format.setCurrency(key.currency());
    int digits = key.currency().getDefaultFractionDigits();
    if (digits >= 0) {
      format.setMinimumFractionDigits(digits);
      format.setMaximumFractionDigits(digits);
    }
    return format;
  }

  private record FormatKey(Locale locale, Currency currency) {}
}
