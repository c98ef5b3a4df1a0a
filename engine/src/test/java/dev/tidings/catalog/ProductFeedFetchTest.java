package dev.tidings.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.tidings.coordination.MutableClock;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.fetch.FetchPurpose;
import dev.tidings.fetch.FileFetchResult;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.storage.Database;
import dev.tidings.testing.HostileContent;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduled product feed against a real local HTTP server (loopback allowed for the server's own port
 * only, as a test allowance) and the embedded PostgreSQL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
@StartsServers
class ProductFeedFetchTest {
  private static final Duration INTERVAL = Duration.ofMinutes(1);
  /** The tests' byte limit for a fetched feed. */
  private static final int MAX_BYTES = 1 << 20;

  private Database database;
  private CatalogService catalog;
  private final MutableClock clock = new MutableClock();
  private HttpServer server;
  private SimpleMeterRegistry metrics;

  /** What the server answers: the feed's body and its ETag; 304 when a request names that ETag. */
  private volatile String body = "";

  /** When set, sent instead of {@link #body}, as gzip. */
  private volatile byte @Nullable [] gzipped;

  /** Where the rounds keep a fetched body while they import it; must be empty after every round. */
  @TempDir
  Path work;

  private volatile String etag = "\"v1\"";
  private final List<@Nullable String> ifNoneMatch = new CopyOnWriteArrayList<>();

  @BeforeAll
  void open() throws IOException {
    database = TestDatabases.embedded();
    catalog = new CatalogService(database.jdbi(), clock);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/feed.tsv", exchange -> {
      String sent = exchange.getRequestHeaders().getFirst("If-None-Match");
      ifNoneMatch.add(sent);
      if (etag.equals(sent)) {
        exchange.sendResponseHeaders(304, -1);
      } else {
        byte[] bytes = gzipped != null ? gzipped : body.getBytes(StandardCharsets.UTF_8);
        exchange
            .getResponseHeaders()
            .set(
                "Content-Type", gzipped != null ? "application/gzip" : "text/tab-separated-values");
        exchange.getResponseHeaders().set("ETag", etag);
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
      }
      exchange.close();
    });
    server.start();
  }

  @AfterAll
  void close() {
    server.stop(0);
    database.close();
  }

  @BeforeEach
  void empty() throws IOException {
    database
        .jdbi()
        .useHandle(handle -> handle.execute("TRUNCATE products, event_outbox, product_feed_state"));
    metrics = new SimpleMeterRegistry();
    ifNoneMatch.clear();
    gzipped = null;
    etag = "\"v1\"";
    body = Files.readString(ProductFeedContract.feed("products.tsv"));
    clock.advance(INTERVAL.multipliedBy(10));
  }

  @AfterEach
  void noLeftovers() throws IOException {
    metrics.close();
    if (Files.isDirectory(work)) {
      try (Stream<Path> left = Files.list(work)) {
        assertThat(left.toList()).as("fetched bodies left behind").isEmpty();
      }
    }
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/feed.tsv";
  }

  private ProductFeedFetch feed(String url, FetchAllowance allowance) {
    var fetcher = new GuardedFetcher(
        allowance, GuardedFetcher.Limits.of(Duration.ofSeconds(30), MAX_BYTES), metrics);
    return new ProductFeedFetch(
        URI.create(url),
        INTERVAL,
        catalog,
        database.jdbi(),
        fetcher,
        InProcessCoordination.computeOnce(clock),
        clock,
        metrics,
        work);
  }

  /** The test server's own address and port only. */
  private FetchAllowance theServerOnly() {
    return FetchAllowance.addressAndPort(
        InetAddress.getLoopbackAddress(), server.getAddress().getPort());
  }

  private double fetches(String outcome) {
    return metrics
        .get("tidings_product_feed_fetches_total")
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  @Test
  void a_fetch_updates_prices_and_availability_honours_the_etag_and_marks_what_left_unavailable() {
    var feed = feed(url(), theServerOnly());

    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.UPDATED);
    assertThat(catalog.count()).isEqualTo(3);
    assertThat(ifNoneMatch).containsExactly((String) null);

    clock.advance(INTERVAL);
    etag = "\"v2\"";
    body = body.replace("159.00 USD\t139.00 USD", "149.00 USD\t")
        .replace("out of stock", "in_stock")
        .lines()
        .filter(line -> !line.startsWith("PHONE_CASE_9"))
        .reduce("", (all, line) -> all + line + "\n");
    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.UPDATED);
    assertThat(ifNoneMatch).containsExactly(null, "\"v1\"");
    Product tv = catalog.get("TV_123456").orElseThrow();
    assertThat(tv.price()).isEqualByComparingTo("149");
    assertThat(tv.salePrice()).isEmpty();
    assertThat(catalog.get("TEE_BLUE_M").orElseThrow().available()).isTrue();
    assertThat(catalog.get("PHONE_CASE_9").orElseThrow().available())
        .as("left the feed: kept, unavailable")
        .isFalse();
    assertThat(metrics
            .get("tidings_product_feed_products_total")
            .tag("change", "unavailable")
            .counter()
            .count())
        .isEqualTo(1);

    clock.advance(INTERVAL);
    var before = catalog.list(Optional.empty(), 10);
    body = "this would not parse, but the server says the feed has not changed";
    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.NOT_MODIFIED);
    assertThat(ifNoneMatch).containsExactly(null, "\"v1\"", "\"v2\"");
    assertThat(catalog.list(Optional.empty(), 10)).isEqualTo(before);
    assertThat(fetches("updated")).isEqualTo(2);
    assertThat(fetches("not_modified")).isEqualTo(1);
    assertThat(metrics.get("tidings_product_feed_last_success_seconds").gauge().value())
        .isEqualTo(clock.instant().getEpochSecond());
  }

  @Test
  void the_first_import_of_a_feed_is_not_news_and_later_new_products_are() {
    var feed = feed(url(), theServerOnly());
    feed.run();
    assertThat(queuedNews()).isEmpty();

    clock.advance(INTERVAL);
    etag = "\"v2\"";
    body = body
        + "NEW_1\tNew speaker\t\thttps://shop.example.com/new-1\thttps://images.example.com/new-1.png"
        + "\tin_stock\t49.00 USD\t\tLG\t\t\t\t\t\t\t\n";
    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.UPDATED);
    assertThat(queuedNews()).containsExactly("NEW_1");
  }

  @Test
  void one_node_fetches_per_interval() {
    var feed = feed(url(), theServerOnly());

    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.UPDATED);
    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.ELSEWHERE);
    assertThat(ifNoneMatch).hasSize(1);

    clock.advance(INTERVAL);
    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.NOT_MODIFIED);
    assertThat(ifNoneMatch).hasSize(2);
  }

  @Test
  void a_feed_at_a_loopback_or_private_address_is_refused_counted_and_never_requested() {
    assertThat(feed(url(), FetchAllowance.none()).run())
        .isEqualTo(ProductFeedFetch.Outcome.REFUSED);
    assertThat(feed("http://10.0.0.1/feed.xml", FetchAllowance.none()).fetchAndImport())
        .isEqualTo(ProductFeedFetch.Outcome.REFUSED);

    assertThat(ifNoneMatch).isEmpty();
    assertThat(fetches("refused")).isEqualTo(2);
    assertThat(catalog.count()).isZero();
  }

  @Test
  void a_feed_with_a_bad_row_changes_nothing_and_is_counted_invalid() {
    var feed = feed(url(), theServerOnly());
    feed.run();
    clock.advance(INTERVAL);
    etag = "\"v2\"";
    body = body.replace("159.00 USD\t139.00 USD", "1.00 USD\t2.00 USD");

    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.INVALID);

    assertThat(catalog.get("TV_123456").orElseThrow().price()).isEqualByComparingTo("159");
    assertThat(fetches("invalid")).isEqualTo(1);
    clock.advance(INTERVAL);
    feed.run();
    assertThat(ifNoneMatch.getLast())
        .as("the validators of the last import stay, so the changed feed is fetched again")
        .isEqualTo("\"v1\"");
  }

  @Test
  void a_gzipped_feed_larger_than_the_byte_limit_once_unpacked_is_imported_from_its_file()
      throws IOException {
    int items = 12_000;
    String feed = feedOf(items);
    assertThat(feed.length())
        .as("unpacked, the feed is larger than the byte limit; gzip counts as it arrives")
        .isGreaterThan(MAX_BYTES);
    gzipped = gzip(feed);
    assertThat(gzipped.length).isLessThan(MAX_BYTES);

    assertThat(feed(url(), theServerOnly()).run()).isEqualTo(ProductFeedFetch.Outcome.UPDATED);

    assertThat(catalog.count()).isEqualTo(items);
    assertThat(catalog.get("ITEM_11999").orElseThrow().title()).isEqualTo("Speaker 11999");
    assertThat(work).isEmptyDirectory();
  }

  @Test
  void a_feed_past_the_byte_limit_is_refused_writes_nothing_and_leaves_no_file() {
    body = feedOf(12_000);
    assertThat(body.length()).isGreaterThan(MAX_BYTES);

    assertThat(feed(url(), theServerOnly()).run()).isEqualTo(ProductFeedFetch.Outcome.REFUSED);

    assertThat(catalog.count()).isZero();
    assertThat(fetches("refused")).isEqualTo(1);
    assertThat(work).isEmptyDirectory();
  }

  @Test
  void a_work_directory_that_cannot_be_written_fails_the_round_before_fetching()
      throws IOException {
    Path taken = Files.writeString(work.resolve("taken"), "a file where the directory would be");
    var feed = new ProductFeedFetch(
        URI.create(url()),
        INTERVAL,
        catalog,
        database.jdbi(),
        new GuardedFetcher(
            theServerOnly(), GuardedFetcher.Limits.of(Duration.ofSeconds(5), MAX_BYTES), metrics),
        InProcessCoordination.computeOnce(clock),
        clock,
        metrics,
        taken.resolve("feeds"));

    assertThat(feed.fetchAndImport()).isEqualTo(ProductFeedFetch.Outcome.FAILED);

    assertThat(ifNoneMatch).as("nothing was requested").isEmpty();
    assertThat(catalog.count()).isZero();
    Files.delete(taken);
  }

  @Test
  void a_file_left_by_a_round_whose_process_died_is_deleted_when_the_next_round_starts()
      throws IOException {
    Path left = Files.writeString(work.resolve("fetch-4711.part"), "half a feed");
    Path other = Files.writeString(work.resolve("notes.txt"), "not the fetcher's");

    assertThat(feed(url(), theServerOnly()).run()).isEqualTo(ProductFeedFetch.Outcome.UPDATED);

    assertThat(left).doesNotExist();
    assertThat(other).as("only the fetcher's files are leftovers").exists();
    Files.delete(other);
  }

  @Test
  void the_fetcher_keeps_a_body_in_a_file_that_a_round_would_take_for_a_leftover() {
    var leftovers = work.getFileSystem().getPathMatcher("glob:" + ProductFeedFetch.LEFTOVERS);
    var fetcher = new GuardedFetcher(
        theServerOnly(), GuardedFetcher.Limits.of(Duration.ofSeconds(30), MAX_BYTES), metrics);

    Path kept = fetcher.fetchToFile(
        URI.create(url()),
        FetchPurpose.PRODUCT_FEED,
        Map.of(),
        work,
        result -> ((FileFetchResult.Saved) result).file());

    assertThat(leftovers.matches(kept.getFileName())).as(kept.toString()).isTrue();
  }

  @Test
  void a_feed_with_a_run_of_text_past_the_limit_changes_nothing_and_is_counted_invalid() {
    var feed = feed(url(), theServerOnly());
    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.UPDATED);
    var before = catalog.list(Optional.empty(), 10);
    clock.advance(INTERVAL);
    etag = "\"v2\"";
    // no item at all, but 300 Ki characters of text where the items would be
    body = "<?xml version=\"1.0\"?>\n<rss version=\"2.0\">\n<channel>\n" + "text ".repeat(60 * 1024)
        + "\n</channel>\n</rss>\n";

    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.INVALID);

    assertThat(catalog.list(Optional.empty(), 10))
        .as("no product of the feed marked unavailable")
        .isEqualTo(before);
    assertThat(fetches("invalid")).isEqualTo(1);
    assertThat(work).isEmptyDirectory();
  }

  @Test
  void a_gzip_bomb_is_refused_as_it_expands_changes_nothing_and_is_counted_invalid() {
    var feed = feed(url(), theServerOnly());
    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.UPDATED);
    var before = catalog.list(Optional.empty(), 10);
    clock.advance(INTERVAL);
    etag = "\"v2\"";
    // a header, then 64 MiB of empty lines in some 70 KiB
    gzipped = HostileContent.gzipMembers(
        "id\ttitle\tlink\timage_link\tprice\n", HostileContent.Fill.LINE_BREAKS, 64, "");

    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.INVALID);

    assertThat(catalog.list(Optional.empty(), 10))
        .as("no product of the feed marked unavailable")
        .isEqualTo(before);
    assertThat(fetches("invalid")).isEqualTo(1);
    assertThat(work).isEmptyDirectory();
  }

  /** A tab-separated feed of {@code items} speakers, ITEM_0 to ITEM_{items-1}. */
  private static String feedOf(int items) {
    var feed = new StringBuilder(
        "id\ttitle\tdescription\tlink\timage_link\tavailability\tprice\tsale_price\tbrand\n");
    for (int i = 0; i < items; i++)
      feed.append("ITEM_")
          .append(i)
          .append("\tSpeaker ")
          .append(i)
          .append("\tA speaker that fills a room, and the description a feed gives it.")
          .append("\thttps://shop.example.com/speakers/")
          .append(i)
          .append("\thttps://images.example.com/speakers/")
          .append(i)
          .append(".png\tin_stock\t49.00 USD\t\tLG\n");
    return feed.toString();
  }

  private static byte[] gzip(String text) throws IOException {
    var out = new ByteArrayOutputStream();
    try (var zipped = new GZIPOutputStream(out)) {
      zipped.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  /** The products told as news for their brand's followers: new or back in stock, of a brand. */
  private List<String> queuedNews() {
    return database
        .jdbi()
        .withHandle(handle -> handle.createQuery("""
                SELECT e->>'subject'
                  FROM event_outbox, jsonb_array_elements(CAST(events AS jsonb)) AS e
                 WHERE e->>'type' IN ('dev.tidings.catalog.product_added',
                                      'dev.tidings.catalog.back_in_stock')
                   AND e->'data'->>'brand' IS NOT NULL
                 ORDER BY 1""").mapTo(String.class).list());
  }
}
