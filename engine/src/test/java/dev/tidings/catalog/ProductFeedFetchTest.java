package dev.tidings.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.tidings.coordination.MutableClock;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduled product feed against a real local HTTP server (loopback allowed for the server's own port
 * only, as a test allowance) and the embedded PostgreSQL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class ProductFeedFetchTest {
  private static final Duration INTERVAL = Duration.ofMinutes(1);

  private Database database;
  private CatalogService catalog;
  private final MutableClock clock = new MutableClock();
  private HttpServer server;
  private SimpleMeterRegistry metrics;

  /** What the server answers: the feed's body and its ETag; 304 when a request names that ETag. */
  private volatile String body = "";

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
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/tab-separated-values");
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
        .useHandle(
            handle -> handle.execute("TRUNCATE products, product_additions, product_feed_state"));
    metrics = new SimpleMeterRegistry();
    ifNoneMatch.clear();
    etag = "\"v1\"";
    body = Files.readString(ProductFeedContract.feed("products.tsv"));
    clock.advance(INTERVAL.multipliedBy(10));
  }

  @AfterEach
  void noLeftovers() {
    metrics.close();
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/feed.tsv";
  }

  private ProductFeedFetch feed(String url, FetchAllowance allowance) {
    var fetcher = new GuardedFetcher(
        allowance, GuardedFetcher.Limits.of(Duration.ofSeconds(5), 1 << 20), metrics);
    return new ProductFeedFetch(
        URI.create(url),
        INTERVAL,
        catalog,
        database.jdbi(),
        fetcher,
        InProcessCoordination.computeOnce(clock),
        clock,
        metrics);
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
    var before = catalog.list(java.util.Optional.empty(), 10);
    body = "this would not parse, but the server says the feed has not changed";
    assertThat(feed.run()).isEqualTo(ProductFeedFetch.Outcome.NOT_MODIFIED);
    assertThat(ifNoneMatch).containsExactly(null, "\"v1\"", "\"v2\"");
    assertThat(catalog.list(java.util.Optional.empty(), 10)).isEqualTo(before);
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

  private List<String> queuedNews() {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT product_id FROM product_additions ORDER BY 1")
            .mapTo(String.class)
            .list());
  }
}
