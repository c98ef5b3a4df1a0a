package dev.tidings.app;

import dev.tidings.audience.SubscriberService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Markets;
import dev.tidings.catalog.ProductFeedFetch;
import dev.tidings.catalog.SubscriberMarkets;
import dev.tidings.catalog.SubscriberPrices;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.Election;
import dev.tidings.storage.StoredRowRepair;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.Uploads;
import dev.tidings.web.catalog.CatalogRoutes;
import dev.tidings.web.catalog.MarketRoutes;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The product catalogue on the node's database; with {@code TIDINGS_PRODUCT_FEED_URL}, every started node
 * also runs the scheduled product feed (one node fetches per interval, see {@link ProductFeedFetch}).
 */
public final class CatalogWiring implements Capability {
  /** After a node starts, before its first round: its other parts settle first. */
  private static final Duration FEED_FIRST_DELAY = Duration.ofSeconds(5);

  private static final Duration FEED_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** The whole fetch of a feed, the last byte included: feeds of a large shop take a while. */
  private static final Duration FEED_FETCH_TIMEOUT = Duration.ofMinutes(5);
  /** Under the data directory: where a fetched feed's body is kept while it is imported, then deleted. */
  private static final String FEED_WORK_DIRECTORY = "product-feed";

  private final Infrastructure infrastructure;
  private final Lazy<CatalogService> catalog;
  private final Lazy<Markets> markets;
  private final Lazy<SubscriberMarkets> subscriberMarkets;
  private final Lazy<SubscriberPrices> subscriberPrices;

  CatalogWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.catalog =
        Lazy.of(() -> new CatalogService(infrastructure.database().jdbi(), infrastructure.clock()));
    this.markets =
        Lazy.of(() -> new Markets(infrastructure.database().jdbi(), infrastructure.clock()));
    this.subscriberMarkets = Lazy.of(() -> {
      var subscribers =
          new SubscriberService(infrastructure.database().jdbi(), infrastructure.clock());
      return new SubscriberMarkets(
          markets()::list, ids -> placements(subscribers, ids), infrastructure.metrics());
    });
    this.subscriberPrices =
        Lazy.of(() -> new SubscriberPrices(catalog()::getAll, markets(), subscriberMarkets()));
  }

  /** Products as each subscriber's market sells them. */
  public SubscriberPrices subscriberPrices() {
    return subscriberPrices.get();
  }

  /** The market of each subscriber: one per node, so every part of an email agrees on it. */
  public SubscriberMarkets subscriberMarkets() {
    return subscriberMarkets.get();
  }

  private static Map<String, SubscriberMarkets.Placement> placements(
      SubscriberService subscribers, Collection<String> ids) {
    Map<String, SubscriberMarkets.Placement> out = new HashMap<>();
    subscribers
        .placements(ids)
        .forEach((id, placement) ->
            out.put(id, new SubscriberMarkets.Placement(placement.market(), placement.country())));
    return out;
  }

  /** Markets and the products' prices in them. */
  public Markets markets() {
    return markets.get();
  }

  public CatalogService catalog() {
    return catalog.get();
  }

  @Override
  public List<Background> background() {
    var settings = infrastructure.settings().catalog();
    if (settings.feedUrl().isEmpty()) return List.of();
    return List.of(() -> {
      var fetcher = new GuardedFetcher(
          infrastructure.settings().fetchAllow(),
          new GuardedFetcher.Limits(
              FEED_CONNECT_TIMEOUT, FEED_FETCH_TIMEOUT, settings.feedMaxBytes(), 3),
          infrastructure.metrics());
      var feed = new ProductFeedFetch(
          settings.feedUrl().get(),
          settings.feedInterval(),
          catalog(),
          infrastructure.database().jdbi(),
          fetcher,
          infrastructure.coordination().computeOnce(),
          infrastructure.clock(),
          infrastructure.metrics(),
          infrastructure.settings().dataDir().resolve(FEED_WORK_DIRECTORY));
      var rounds = infrastructure
          .jobs()
          .start(new BackgroundJob(
              "product-feed",
              FEED_FIRST_DELAY,
              settings.feedInterval(),
              Election.computeOnce(),
              feed::round));
      return () -> {
        rounds.close();
        fetcher.close();
      };
    });
  }

  @Override
  public List<StoredRowRepair> repairs() {
    return List.of(catalog().storedRowRepair());
  }

  @Override
  public List<RouteGroup> routes() {
    var settings = infrastructure.settings();
    return List.of(
        new MarketRoutes(markets(), catalog(), settings.maxBodyBytes()),
        new CatalogRoutes(
            catalog(),
            settings.maxBodyBytes(),
            Uploads.underDataDirectory(settings.dataDir(), settings.maxImportBytes())));
  }
}
