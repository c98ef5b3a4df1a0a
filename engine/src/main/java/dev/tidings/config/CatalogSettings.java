package dev.tidings.config;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The catalogue's settings: the scheduled product feed (its URL, how often it is fetched, its largest size)
 * and whether a product back in stock is news again.
 *
 * @param feedUrl {@code TIDINGS_PRODUCT_FEED_URL}; empty: no scheduled fetch
 * @param feedInterval {@code TIDINGS_PRODUCT_FEED_INTERVAL}, at least a minute
 * @param feedMaxBytes {@code TIDINGS_PRODUCT_FEED_MAX_BYTES}, what arrives (compressed or not)
 * @param backInStockNews {@code TIDINGS_BACK_IN_STOCK_NEWS}
 */
public record CatalogSettings(
    Optional<URI> feedUrl, Duration feedInterval, long feedMaxBytes, boolean backInStockNews) {
  public CatalogSettings {
    Objects.requireNonNull(feedUrl, "feedUrl");
    Objects.requireNonNull(feedInterval, "feedInterval");
    if (feedInterval.compareTo(Duration.ofMinutes(1)) < 0)
      throw new IllegalArgumentException("feedInterval must be at least PT1M, got " + feedInterval);
    if (feedMaxBytes < 1 || feedMaxBytes >= Integer.MAX_VALUE)
      throw new IllegalArgumentException("feedMaxBytes must be between 1 and 2^31-2");
  }

  /** No feed, the defaults otherwise. */
  public static CatalogSettings defaults() {
    return new CatalogSettings(
        Optional.empty(),
        SettingsCatalog.PRODUCT_FEED_INTERVAL.durationDefault(),
        SettingsCatalog.PRODUCT_FEED_MAX_BYTES.longDefault(),
        false);
  }
}
