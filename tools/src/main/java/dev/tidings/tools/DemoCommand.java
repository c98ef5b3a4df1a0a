package dev.tidings.tools;

import dev.tidings.TidingsException;
import dev.tidings.app.ActivityWiring;
import dev.tidings.app.AudienceWiring;
import dev.tidings.app.CatalogWiring;
import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import dev.tidings.app.NodeAdditions;
import dev.tidings.app.Role;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.cli.Banner;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.ImportCommand;
import dev.tidings.cli.Progress;
import dev.tidings.cli.UntilStopped;
import dev.tidings.cli.UsageException;
import dev.tidings.config.Settings;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.sample.SampleFormat;
import dev.tidings.sample.SampleMarkets;
import dev.tidings.sample.SampleShop;
import dev.tidings.sample.SampleShopSpec;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Run everything in one process on the embedded default, with a sample shop.",
      "A PostgreSQL of its own under the data directory, a generated sample shop (first start only), the API and",
      "the dashboard. Ctrl-C stops it; the next start reuses the data."
    })
final class DemoCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(names = "--port", description = "HTTP port (default: TIDINGS_PORT, else 8080)")
  @Nullable Integer port;

  @Option(
      names = "--subscribers",
      defaultValue = "2000",
      description = "sample subscribers (default ${DEFAULT-VALUE})")
  int subscribers;

  @Option(
      names = "--products",
      defaultValue = "500",
      description = "sample products (default ${DEFAULT-VALUE})")
  int products;

  @Option(
      names = "--events-per-subscriber",
      defaultValue = "20",
      description = "a week of activity (default ${DEFAULT-VALUE} events each)")
  int eventsPerSubscriber;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "sample shop seed: same seed, same shop (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--feed",
      description =
          "start the shop from this product feed (Google Merchant Center RSS/Atom or tab-separated,"
              + " optionally .gz; e.g. tools/src/main/resources/demo/feed.xml) instead of generated products;"
              + " the generated subscribers follow its brands and browse its products")
  @Nullable Path feed;

  @Option(
      names = "--no-engagement",
      description = "send the campaign but simulate no readers: post your own receipts")
  boolean noEngagement;

  @Option(
      names = "--engagement-minutes",
      defaultValue = "3",
      description = "how long the simulated readers take (default ${DEFAULT-VALUE} minutes)")
  int engagementMinutes;

  @Override
  public Integer call() {
    if (subscribers < 1 || products < 1)
      throw new UsageException("--subscribers and --products must be at least 1");
    if (engagementMinutes < 1 || engagementMinutes > 60)
      throw new UsageException("--engagement-minutes must be from 1 to 60");
    if (eventsPerSubscriber < 0)
      throw new UsageException("--events-per-subscriber must not be negative");
    if (feed != null && !Files.isReadable(feed))
      throw new UsageException("cannot read the feed " + feed);
    var configured = settings();
    Logging.configure(configured.logFormat(), configured.accessLog());
    int httpPort = port != null ? port : configured.port();
    var settings = ownPictures(configured.onPort(httpPort));
    var node = Node.of(settings, NodeAdditions.NONE.withCapability(new SampleShopWiring()));
    try {
      var catalog = node.capability(CatalogWiring.class).catalog();
      if (catalog.count() == 0) {
        loadSampleShop(node, publicUrl(node, httpPort));
      } else {
        System.out.printf(
            "reusing %s: %,d products, %,d subscribers%n",
            settings.dataDir(),
            catalog.count(),
            node.capability(AudienceWiring.class).subscribers().count());
      }
      node.start(Role.DEMO, httpPort);
    } catch (RuntimeException e) {
      node.close();
      throw e;
    }
    Banner.print(node, Role.DEMO);
    try (var readers = new DemoReaders(node, seed, Duration.ofMinutes(engagementMinutes));
        var journey = new DemoJourney(node, seed, Duration.ofMinutes(engagementMinutes))) {
      // the campaign first: it is sent only when the data directory has no campaign yet, and the
      // journey's emails are campaigns too
      DemoCampaign.sendOnFirstStart(node, noEngagement ? () -> {} : readers::start);
      if (!noEngagement) journey.startOnFirstStart();
      UntilStopped.await(node);
    }
    return 0;
  }

  /**
   * The sample shop's pictures are served by this node under its public URL, usually on loopback:
   * its cards may fetch from exactly that address and port, not from the rest of the machine.
   */
  private static Settings ownPictures(Settings settings) {
    URI base = settings.publicUrl();
    String host = base.getHost();
    int port =
        base.getPort() > 0 ? base.getPort() : "https".equalsIgnoreCase(base.getScheme()) ? 443 : 80;
    if (host == null) return settings;
    try {
      var own = FetchAllowance.none();
      for (InetAddress address : InetAddress.getAllByName(host))
        own = own.plus(FetchAllowance.addressAndPort(address, port));
      return settings.withFetchAllowed(own);
    } catch (UnknownHostException e) {
      // a public URL this machine cannot resolve: its pictures show as cards without them
      return settings;
    }
  }

  private static URI publicUrl(Node node, int httpPort) {
    var configured = node.settings().publicUrl();
    boolean isDefault = configured.toString().equals(Settings.DEFAULT_PUBLIC_URL);
    return isDefault ? URI.create("http://localhost:" + httpPort) : configured;
  }

  void loadSampleShop(Node node, URI publicUrl) {
    var spec = new SampleShopSpec(
        seed,
        products,
        subscribers,
        node.infrastructure().clock().instant().truncatedTo(ChronoUnit.DAYS),
        eventsPerSubscriber,
        publicUrl);
    Path directory = node.settings().dataDir().resolve("sample");
    System.out.printf(
        "generating a sample shop (seed %d): %,d products, %,d subscribers, a week of activity%n",
        seed, products, subscribers);
    var counts = SampleShop.write(spec, directory, SampleFormat.JSONL);
    Path follows = directory.resolve("follows.jsonl");
    Path events = directory.resolve("events.jsonl");
    var catalog = node.capability(CatalogWiring.class).catalog();
    if (feed == null) {
      load(
          "products",
          counts.products(),
          // the starting catalogue is news to nobody
          options ->
              catalog.importFile(directory.resolve("products.jsonl"), options.withNews(false)));
      loadMarkets(node);
    } else {
      load("products", -1, options -> catalog.importFile(feed, options.withNews(false)));
      var fromFeed = DemoFeed.of(catalog);
      System.out.printf("  the shop is the feed's %,d products%n", fromFeed.size());
      fromFeed.moveFollows(follows, directory.resolve("follows-feed.jsonl"));
      fromFeed.moveEvents(events, directory.resolve("events-feed.jsonl"));
      follows = directory.resolve("follows-feed.jsonl");
      events = directory.resolve("events-feed.jsonl");
    }
    Path followsFile = follows;
    Path eventsFile = events;
    load(
        "subscribers",
        counts.subscribers(),
        options -> node.capability(AudienceWiring.class)
            .subscribers()
            .importFile(directory.resolve("subscribers.jsonl"), options));
    load(
        "follows",
        counts.follows(),
        options ->
            node.capability(AudienceWiring.class).follows().importFile(followsFile, options));
    load(
        "events",
        counts.events(),
        options ->
            node.capability(ActivityWiring.class).intake().importEvents(eventsFile, options));
  }

  /** The shop's markets, and every product priced in each (one statement for the whole list). */
  private static void loadMarkets(Node node) {
    var wiring = node.capability(CatalogWiring.class);
    SampleMarkets.MARKETS.forEach(wiring.markets()::put);
    Map<String, Map<String, BigDecimal>> prices = new HashMap<>();
    Optional<String> after = Optional.empty();
    while (true) {
      List<Product> page = wiring.catalog().list(after, CatalogService.MAX_PAGE);
      if (page.isEmpty()) break;
      for (Product product : page)
        prices.put(product.id(), SampleMarkets.prices(product.price(), product.currency()));
      after = Optional.of(page.getLast().id());
    }
    wiring.markets().putAllPrices(prices);
    System.out.printf(
        "  %-12s %,10d products priced in %s%n",
        "markets",
        prices.size(),
        SampleMarkets.MARKETS.stream().map(market -> market.code()).toList());
  }

  private static void load(
      String kind, long expected, Function<ImportOptions, ImportReport> importer) {
    ImportReport report;
    try (var progress = Progress.of("loading " + kind, expected)) {
      report = importer.apply(ImportOptions.allOrNothing().withProgress(progress::stepTo));
    }
    if (!report.committed() || report.rejected() > 0) {
      ImportCommand.print(report, 10);
      throw new TidingsException(
          "the sample " + kind + " did not import cleanly (from a feed: its errors are above;"
              + " generated: a bug, please report it)");
    }
    System.out.printf(
        "  %-12s %,10d rows in %.1f s%n",
        kind, report.imported(), report.duration().toMillis() / 1000.0);
  }
}
