package dev.tidings.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guard against a real HTTP server on loopback, which the guard refuses unless allowed. */
class GuardedFetcherTest {
  private static final byte[] PNG = {
    (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'
  };
  private static final GuardedFetcher.Limits LIMITS =
      new GuardedFetcher.Limits(Duration.ofSeconds(1), Duration.ofSeconds(2), 1024, 3);

  private HttpServer server;
  private HttpServer internal;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<String> internalRequests = new CopyOnWriteArrayList<>();
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  /** A feed's body just within the byte limit, not all zeros, so a misplaced byte shows. */
  private static final byte[] FEED = feedBody();

  @TempDir
  Path work;

  private static byte[] feedBody() {
    byte[] body = new byte[1000];
    new Random(7).nextBytes(body);
    return body;
  }

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      requests.add(exchange.getRequestURI().getPath());
      try (exchange) {
        answer(exchange);
      }
    });
    server.start();
    internal = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    internal.createContext("/", exchange -> {
      internalRequests.add(exchange.getRequestURI().getPath());
      try (exchange) {
        send(exchange, "image/png", PNG);
      }
    });
    internal.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    internal.stop(0);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (path.equals("/image.png")) send(exchange, "image/png", PNG);
    else if (path.equals("/page.html")) send(exchange, "text/html", "<html>".getBytes());
    else if (path.equals("/html-as-png")) send(exchange, "image/png", "<html></html>".getBytes());
    else if (path.equals("/large.png")) send(exchange, "image/png", new byte[2048]);
    else if (path.equals("/large-chunked.png")) {
      exchange.getResponseHeaders().add("Content-Type", "image/png");
      exchange.sendResponseHeaders(200, 0);
      exchange.getResponseBody().write(PNG);
      for (int i = 0; i < 100; i++) exchange.getResponseBody().write(new byte[1024]);
    } else if (path.equals("/feed.xml")) {
      // no declared length: the body arrives in pieces, as a large feed's does
      exchange.getResponseHeaders().add("Content-Type", "application/xml");
      exchange.sendResponseHeaders(200, 0);
      for (int at = 0; at < FEED.length; at += 100) {
        exchange.getResponseBody().write(FEED, at, Math.min(100, FEED.length - at));
        exchange.getResponseBody().flush();
      }
    } else if (path.equals("/to-feed")) redirect(exchange, "/feed.xml");
    else if (path.equals("/endless.png")) {
      // past the limit at once, then on and on for longer than the deadline: only a reader that
      // stops at the limit answers before the deadline
      exchange.getResponseHeaders().add("Content-Type", "image/png");
      exchange.sendResponseHeaders(200, 0);
      try {
        exchange.getResponseBody().write(PNG);
        exchange.getResponseBody().write(new byte[2048]);
        exchange.getResponseBody().flush();
        for (int i = 0; i < 40; i++) {
          exchange.getResponseBody().write(new byte[64]);
          exchange.getResponseBody().flush();
          Thread.sleep(100);
        }
      } catch (InterruptedException | IOException e) {
        // the client stopped reading
      }
    } else if (path.equals("/to-internal")) redirect(exchange, internalUrl("/secret.png"));
    else if (path.startsWith("/hops/")) {
      int left = Integer.parseInt(path.substring("/hops/".length()));
      redirect(exchange, left == 0 ? "/image.png" : "/hops/" + (left - 1));
    } else if (path.equals("/slow.png")) {
      exchange.getResponseHeaders().add("Content-Type", "image/png");
      exchange.sendResponseHeaders(200, 0);
      try {
        for (int i = 0; i < 50; i++) {
          exchange.getResponseBody().write(PNG, 0, 1);
          exchange.getResponseBody().flush();
          Thread.sleep(200);
        }
      } catch (InterruptedException | IOException e) {
        // the client gave up
      }
    } else exchange.sendResponseHeaders(404, -1);
  }

  private static void send(HttpExchange exchange, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
  }

  private static void redirect(HttpExchange exchange, String location) throws IOException {
    exchange.getResponseHeaders().add("Location", location);
    exchange.sendResponseHeaders(302, -1);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private String internalUrl(String path) {
    return "http://127.0.0.1:" + internal.getAddress().getPort() + path;
  }

  private GuardedFetcher fetcher(FetchAllowance allowance) {
    return new GuardedFetcher(allowance, LIMITS, metrics);
  }

  /** Only the test server's own address and port: as the demo allows its own node. */
  private GuardedFetcher allowingTheServer() {
    return fetcher(FetchAllowance.addressAndPort(
        InetAddress.getLoopbackAddress(), server.getAddress().getPort()));
  }

  @Test
  void a_loopback_url_is_refused_and_never_requested() {
    try (var fetcher = fetcher(FetchAllowance.none())) {
      var result = fetcher.fetch(url("/image.png"), FetchPurpose.PRODUCT_IMAGE);

      assertThat(result).isInstanceOf(FetchResult.Refused.class);
      assertThat(((FetchResult.Refused) result).reason()).contains("loopback");
    }
    assertThat(requests).isEmpty();
  }

  @Test
  void a_name_that_resolves_to_loopback_is_refused() {
    try (var fetcher = fetcher(FetchAllowance.none())) {
      var result = fetcher.fetch(
          "http://localhost:" + server.getAddress().getPort() + "/image.png",
          FetchPurpose.PRODUCT_IMAGE);

      assertThat(result).isInstanceOf(FetchResult.Refused.class);
    }
    assertThat(requests).isEmpty();
  }

  @Test
  void a_public_looking_name_that_resolves_to_loopback_is_refused() {
    GuardedFetcher.HostResolver lying = host -> host.equals("images.shop.example")
        ? new InetAddress[] {InetAddress.getByName("8.8.8.8"), InetAddress.getLoopbackAddress()}
        : InetAddress.getAllByName(host);
    try (var fetcher = new GuardedFetcher(FetchAllowance.none(), lying, LIMITS, metrics)) {
      var result = fetcher.fetch(
          "http://images.shop.example:" + server.getAddress().getPort() + "/image.png",
          FetchPurpose.PRODUCT_IMAGE);

      assertThat(result).isInstanceOf(FetchResult.Refused.class);
    }
    assertThat(requests).isEmpty();
  }

  @Test
  void metadata_private_and_mapped_addresses_are_refused() {
    try (var fetcher = fetcher(FetchAllowance.none())) {
      for (String url : List.of(
          "http://169.254.169.254/latest/meta-data/",
          "http://10.0.0.1/x.png",
          "http://[::1]:" + server.getAddress().getPort() + "/image.png",
          "http://[::ffff:127.0.0.1]:" + server.getAddress().getPort() + "/image.png",
          "http://[fd00::1]/x.png",
          "http://0.0.0.0:" + server.getAddress().getPort() + "/image.png",
          "http://100.64.0.1/x.png")) {
        assertThat(fetcher.fetch(url, FetchPurpose.PRODUCT_IMAGE))
            .as(url)
            .isInstanceOf(FetchResult.Refused.class);
      }
    }
    assertThat(requests).isEmpty();
  }

  @Test
  void only_http_and_https_are_fetched() throws UnknownHostException {
    try (var fetcher = fetcher(FetchAllowance.everything())) {
      for (String url : List.of("file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/"))
        assertThat(fetcher.fetch(url, FetchPurpose.PRODUCT_IMAGE))
            .as(url)
            .isInstanceOf(FetchResult.Refused.class);
    }
  }

  @Test
  void an_allowed_address_and_port_is_fetched() {
    try (var fetcher = allowingTheServer()) {
      var result = fetcher.fetch(url("/image.png"), FetchPurpose.PRODUCT_IMAGE);

      assertThat(result).isInstanceOf(FetchResult.Fetched.class);
      assertThat(((FetchResult.Fetched) result).body()).isEqualTo(PNG);
    }
    assertThat(metrics
            .get("tidings_fetch_requests_total")
            .tags("purpose", "product_image", "result", "fetched")
            .counter()
            .count())
        .isEqualTo(1);
  }

  @Test
  void allowing_one_port_does_not_allow_the_other_ports_of_the_address() {
    try (var fetcher = allowingTheServer()) {
      assertThat(fetcher.fetch(internalUrl("/secret.png"), FetchPurpose.PRODUCT_IMAGE))
          .isInstanceOf(FetchResult.Refused.class);
    }
    assertThat(internalRequests).isEmpty();
  }

  @Test
  void the_allow_setting_lets_a_named_range_through() {
    try (var fetcher = fetcher(FetchAllowance.parse("192.168.0.0/16, 127.0.0.0/8"))) {
      assertThat(fetcher.fetch(url("/image.png"), FetchPurpose.PRODUCT_IMAGE))
          .isInstanceOf(FetchResult.Fetched.class);
      assertThat(fetcher.fetch("http://10.0.0.1/x.png", FetchPurpose.PRODUCT_IMAGE))
          .isInstanceOf(FetchResult.Refused.class);
    }
  }

  @Test
  void the_allow_setting_lets_a_named_host_through() {
    try (var fetcher = fetcher(FetchAllowance.parse("localhost"))) {
      assertThat(fetcher.fetch(
              "http://localhost:" + server.getAddress().getPort() + "/image.png",
              FetchPurpose.PRODUCT_IMAGE))
          .isInstanceOf(FetchResult.Fetched.class);
      assertThat(fetcher.fetch(url("/image.png"), FetchPurpose.PRODUCT_IMAGE))
          .as("the same address by another name")
          .isInstanceOf(FetchResult.Refused.class);
    }
  }

  @Test
  void a_redirect_from_an_allowed_server_to_a_private_address_is_refused() {
    try (var fetcher = allowingTheServer()) {
      var result = fetcher.fetch(url("/to-internal"), FetchPurpose.PRODUCT_IMAGE);

      assertThat(result).isInstanceOf(FetchResult.Refused.class);
    }
    assertThat(requests).containsExactly("/to-internal");
    assertThat(internalRequests).isEmpty();
  }

  @Test
  void three_redirects_are_followed_and_a_fourth_is_refused() {
    try (var fetcher = allowingTheServer()) {
      var three = fetcher.fetch(url("/hops/2"), FetchPurpose.PRODUCT_IMAGE);
      var four = fetcher.fetch(url("/hops/3"), FetchPurpose.PRODUCT_IMAGE);

      assertThat(three).isInstanceOf(FetchResult.Fetched.class);
      assertThat(four).isInstanceOf(FetchResult.Refused.class);
      assertThat(((FetchResult.Refused) four).reason()).contains("redirects");
    }
    assertThat(requests).doesNotContain("/hops/0/image.png").contains("/hops/0");
    assertThat(requests.stream().filter(path -> path.equals("/image.png"))).hasSize(1);
  }

  @Test
  void a_body_past_the_byte_limit_is_refused_declared_or_not() {
    try (var fetcher = allowingTheServer()) {
      assertThat(fetcher.fetch(url("/large.png"), FetchPurpose.PRODUCT_IMAGE))
          .isInstanceOf(FetchResult.Refused.class);
      assertThat(fetcher.fetch(url("/large-chunked.png"), FetchPurpose.PRODUCT_IMAGE))
          .isInstanceOf(FetchResult.Refused.class);
    }
  }

  @Test
  void what_is_not_an_image_is_refused_for_an_image() {
    try (var fetcher = allowingTheServer()) {
      assertThat(fetcher.fetch(url("/page.html"), FetchPurpose.PRODUCT_IMAGE))
          .isInstanceOf(FetchResult.Refused.class);
      assertThat(fetcher.fetch(url("/html-as-png"), FetchPurpose.PRODUCT_IMAGE))
          .as("an image content type over a body that is not one")
          .isInstanceOf(FetchResult.Refused.class);
    }
  }

  @Test
  void a_body_that_trickles_in_fails_at_the_deadline() {
    try (var fetcher = allowingTheServer()) {
      long started = System.nanoTime();
      var result = fetcher.fetch(url("/slow.png"), FetchPurpose.PRODUCT_IMAGE);

      assertThat(result).isInstanceOf(FetchResult.Failed.class);
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isLessThan(LIMITS.total().plusSeconds(1));
    }
  }

  @Test
  void every_result_is_counted_by_purpose_and_result() {
    try (var fetcher = allowingTheServer()) {
      fetcher.fetch(url("/image.png"), FetchPurpose.PRODUCT_IMAGE);
      fetcher.fetch(url("/missing.png"), FetchPurpose.PRODUCT_IMAGE);
      fetcher.fetch(internalUrl("/secret.png"), FetchPurpose.PRODUCT_IMAGE);
    }
    Map<String, Double> counts =
        Map.of("fetched", count("fetched"), "failed", count("failed"), "refused", count("refused"));
    assertThat(counts).containsEntry("fetched", 1.0).containsEntry("failed", 1.0);
    assertThat(counts).containsEntry("refused", 1.0);
  }

  @Test
  void a_body_streamed_to_a_file_is_the_body_sent_and_the_file_is_gone_afterwards() {
    FileFetchResult.Saved saved;
    byte[] inFile;
    try (var fetcher = allowingTheServer()) {
      var seen = fetcher.fetchToFile(
          URI.create(url("/to-feed")), FetchPurpose.PRODUCT_FEED, Map.of(), work, result -> {
            assertThat(result).isInstanceOf(FileFetchResult.Saved.class);
            var file = ((FileFetchResult.Saved) result).file();
            return Map.entry(result, readAll(file));
          });
      saved = (FileFetchResult.Saved) seen.getKey();
      inFile = seen.getValue();
    }
    assertThat(inFile).isEqualTo(FEED);
    assertThat(saved.size()).isEqualTo(FEED.length);
    assertThat(saved.contentType()).isEqualTo("application/xml");
    assertThat(saved.from().getPath()).as("the URL the body came from").isEqualTo("/feed.xml");
    assertThat(saved.file().getParent()).isEqualTo(work);
    assertThat(saved.file()).doesNotExist();
    assertThat(filesIn(work)).isEmpty();
    assertThat(metrics
            .get("tidings_fetch_requests_total")
            .tags("purpose", "product_feed", "result", "fetched")
            .counter()
            .count())
        .isEqualTo(1);
  }

  @Test
  void the_file_is_deleted_when_what_uses_it_throws() {
    var kept = new AtomicReference<Path>();
    try (var fetcher = allowingTheServer()) {
      Assertions.assertThatThrownBy(() -> fetcher.fetchToFile(
              URI.create(url("/feed.xml")), FetchPurpose.PRODUCT_FEED, Map.of(), work, result -> {
                kept.set(((FileFetchResult.Saved) result).file());
                throw new IllegalStateException("the import broke");
              }))
          .hasMessage("the import broke");
    }
    assertThat(kept.get()).isNotNull().doesNotExist();
    assertThat(filesIn(work)).isEmpty();
  }

  @Test
  void a_body_past_the_limit_stops_being_read_and_leaves_no_file() {
    try (var fetcher = allowingTheServer()) {
      long started = System.nanoTime();
      var result = fetcher.fetchToFile(
          URI.create(url("/endless.png")), FetchPurpose.PRODUCT_IMAGE, Map.of(), work, seen -> {
            assertThat(filesIn(work))
                .as("the partial file, deleted before the result is seen")
                .isEmpty();
            return seen;
          });

      assertThat(result).isInstanceOf(FetchResult.Refused.class);
      assertThat(((FetchResult.Refused) result).reason()).contains("larger than 1024 bytes");
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("refused when the limit is passed, not when the deadline ends the trickle")
          .isLessThan(LIMITS.total());
    }
    assertThat(filesIn(work)).isEmpty();
    assertThat(count("refused")).isEqualTo(1);
  }

  @Test
  void a_body_past_the_limit_in_memory_stops_being_read_too() {
    try (var fetcher = allowingTheServer()) {
      long started = System.nanoTime();
      var result = fetcher.fetch(url("/endless.png"), FetchPurpose.PRODUCT_IMAGE);

      assertThat(result).isInstanceOf(FetchResult.Refused.class);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LIMITS.total());
    }
  }

  @Test
  void a_private_address_is_refused_before_any_byte_and_leaves_no_file() {
    try (var fetcher = fetcher(FetchAllowance.none())) {
      var result = fetcher.fetchToFile(
          URI.create(url("/feed.xml")), FetchPurpose.PRODUCT_FEED, Map.of(), work, seen -> seen);

      assertThat(result).isInstanceOf(FetchResult.Refused.class);
      assertThat(((FetchResult.Refused) result).reason()).contains("loopback");
      var privateRange = fetcher.fetchToFile(
          URI.create("http://10.0.0.1/feed.xml"),
          FetchPurpose.PRODUCT_FEED,
          Map.of(),
          work,
          seen -> seen);
      assertThat(privateRange).isInstanceOf(FetchResult.Refused.class);
    }
    assertThat(requests).isEmpty();
    assertThat(filesIn(work)).isEmpty();
  }

  @Test
  void a_redirect_to_a_private_address_is_refused_for_a_file_as_well() {
    try (var fetcher = allowingTheServer()) {
      var result = fetcher.fetchToFile(
          URI.create(url("/to-internal")),
          FetchPurpose.PRODUCT_IMAGE,
          Map.of(),
          work,
          seen -> seen);

      assertThat(result).isInstanceOf(FetchResult.Refused.class);
    }
    assertThat(internalRequests).isEmpty();
    assertThat(filesIn(work)).isEmpty();
  }

  @Test
  void a_directory_that_cannot_be_made_fails_the_fetch_before_any_request() throws IOException {
    Path notADirectory = Files.writeString(work.resolve("taken"), "a file, not a directory");
    try (var fetcher = allowingTheServer()) {
      var result = fetcher.fetchToFile(
          URI.create(url("/feed.xml")),
          FetchPurpose.PRODUCT_FEED,
          Map.of(),
          notADirectory.resolve("feeds"),
          seen -> seen);

      assertThat(result).isInstanceOf(FetchResult.Failed.class);
    }
    assertThat(requests).isEmpty();
  }

  private static byte[] readAll(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> filesIn(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private double count(String result) {
    return metrics
        .get("tidings_fetch_requests_total")
        .tags("purpose", "product_image", "result", result)
        .counter()
        .count();
  }
}
