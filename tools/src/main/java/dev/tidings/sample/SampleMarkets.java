package dev.tidings.sample;

import dev.tidings.catalog.Market;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sample shop's markets: Britain in pounds, the euro countries of its subscribers in euros, the United
 * States in dollars (and, as the default market, everyone else). Every product is priced in each of them:
 * its price converted at fixed rates, with the shop's price ending kept (.99, .95, or a round 0 or 5).
 */
public final class SampleMarkets {
  /** Units of each currency per euro; fixed, so that the same seed prices the same. */
  private static final Map<String, Double> PER_EURO = Map.of("EUR", 1.0, "GBP", 0.86, "USD", 1.09);

  public static final List<Market> MARKETS = List.of(
      new Market("GB", Currency.getInstance("GBP"), Locale.UK, List.of("GB"), false),
      new Market(
          "DE",
          Currency.getInstance("EUR"),
          Locale.GERMANY,
          List.of("DE", "FR", "ES", "IT", "NL", "PL", "SE", "DK"),
          false),
      new Market("US", Currency.getInstance("USD"), Locale.US, List.of("US"), true));

  private SampleMarkets() {}

  /** A product's price in every market, by market code: its own in its own currency's market. */
  public static Map<String, BigDecimal> prices(BigDecimal price, Currency currency) {
    Map<String, BigDecimal> prices = new LinkedHashMap<>();
    for (Market market : MARKETS) {
      String to = market.currency().getCurrencyCode();
      if (to.equals(currency.getCurrencyCode())) {
        prices.put(market.code(), price);
      } else {
        double converted = price.doubleValue() / perEuro(currency.getCurrencyCode()) * perEuro(to);
        prices.put(market.code(), withEnding(converted, price));
      }
    }
    return prices;
  }

  private static double perEuro(String currency) {
    Double rate = PER_EURO.get(currency);
    if (rate == null)
      throw new IllegalArgumentException("the sample shop has no rate for " + currency);
    return rate;
  }

  /** {@code amount} in whole units with the cents of {@code like}; a round price stays round. */
  static BigDecimal withEnding(double amount, BigDecimal like) {
    long whole = Math.max(1, (long) amount);
    int cents = like.remainder(BigDecimal.ONE).movePointRight(2).intValue();
    if (cents == 0 && whole >= 20) whole = Math.max(20, Math.round(whole / 5.0) * 5);
    return BigDecimal.valueOf(whole * 100 + cents, 2).setScale(2, RoundingMode.UNNECESSARY);
  }
}
