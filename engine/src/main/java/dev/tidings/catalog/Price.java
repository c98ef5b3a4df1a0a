package dev.tidings.catalog;

import java.util.Locale;
import java.util.Optional;

/**
 * What a product costs where a reader sees it: its regular price and, on sale, what it costs now (in the
 * same currency, below the regular price). Emails, cards and the dashboard write it alike: the price now,
 * and on sale the regular one beside it to strike through.
 */
public record Price(Money regular, Optional<Money> sale) {
  public Price {
    if (sale.isPresent() && !sale.get().currency().equals(regular.currency()))
      throw new IllegalArgumentException("a sale price is in the regular price's currency");
  }

  /**
   * The product's price as it stands: its own, or the one a market sells it at when {@code product} is
   * {@link Markets#priced} for that market (which keeps the sale only where it applies).
   */
  public static Price of(Product product) {
    return new Price(
        new Money(product.price(), product.currency()),
        product.salePrice().map(sale -> new Money(sale, product.currency())));
  }

  /** What it costs now: the sale price when there is one, else the regular price. */
  public Money now() {
    return sale.orElse(regular);
  }

  public boolean onSale() {
    return sale.isPresent();
  }

  /** The price now as {@code locale} writes it. */
  public String formatNow(Locale locale) {
    return now().format(locale);
  }

  /** On sale, the regular price as {@code locale} writes it (for a template to strike through). */
  public Optional<String> formatWas(Locale locale) {
    return sale.map(any -> regular.format(locale));
  }
}
