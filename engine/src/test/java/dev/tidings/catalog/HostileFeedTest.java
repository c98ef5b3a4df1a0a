package dev.tidings.catalog;

import static dev.tidings.testing.HostileContent.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tidings.Main;
import dev.tidings.coordination.MutableClock;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportOptions;
import dev.tidings.storage.Database;
import dev.tidings.testing.ChildJvm;
import dev.tidings.testing.HostileContent;
import dev.tidings.testing.HostileContent.Fill;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Feeds made to kill a node, as the scheduled round and {@code tidings import products FILE} meet them,
 * each in a JVM of its own whose whole heap is 256 MiB and which exits on running out of it (as a node
 * runs with {@code -XX:+ExitOnOutOfMemoryError}): a 4 GiB gzip bomb in 4 MiB, a 600 MiB description
 * in 15 MiB of gzip, and a 200 MiB description sent plain (under the default 256 MiB byte limit). Each
 * is refused with its reason, leaves the catalogue and the data directory as they were, and the round
 * never logs the feed URL's query.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
@StartsServers
class HostileFeedTest {
  private static final List<String> NODE_HEAP = List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError");
  /** TIDINGS_PRODUCT_FEED_MAX_BYTES's default. */
  private static final long MAX_BYTES = 256L * MIB;

  private static final String TOKEN = "feed-token-s3cr3t";
  /** An RSS feed up to an item's description, which starts on line 6. */
  private static final String RSS_TO_DESCRIPTION = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">
      <channel>
      <item>
      <g:id>HUGE</g:id>
      <g:description>""";

  private static final String RSS_END = "</g:description>\n</item>\n</channel>\n</rss>\n";

  private final byte[] bomb = HostileContent.gzipBomb("id\ttitle\tlink\timage_link\tprice\n");
  private final byte[] hugeXml =
      HostileContent.gzipMembers(RSS_TO_DESCRIPTION, Fill.TEXT, 600, RSS_END);

  private Database database;
  private CatalogService catalog;
  private HttpServer server;

  @TempDir
  Path dir;

  @BeforeAll
  void open() throws IOException {
    database = TestDatabases.embedded();
    catalog = new CatalogService(database.jdbi(), new MutableClock());
    // the import command works in the server's own schema
    try (var commands = Database.connect(
        TestDatabases.embeddedServer().connectionSpec(2), () -> {}, new SimpleMeterRegistry())) {
      commands.migrate();
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/bomb.tsv", exchange -> send(exchange, "application/gzip", bomb));
    server.createContext("/huge.xml.gz", exchange -> send(exchange, "application/gzip", hugeXml));
    server.createContext("/huge.xml", exchange -> {
      exchange.getResponseHeaders().set("Content-Type", "application/rss+xml");
      exchange.sendResponseHeaders(200, 0);
      try (var body = exchange.getResponseBody();
          InputStream generated =
              HostileContent.generated(RSS_TO_DESCRIPTION, Fill.TEXT, 200L * MIB, RSS_END)) {
        generated.transferTo(body);
      }
    });
    server.start();
  }

  private static void send(HttpExchange exchange, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(200, body.length);
    try (var out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @AfterAll
  void close() {
    server.stop(0);
    database.close();
  }

  @BeforeEach
  void aCatalogueFromTheFeed() throws IOException {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE products, event_outbox"));
    try (InputStream feed = Files.newInputStream(ProductFeedContract.feed("products.tsv"))) {
      var snapshot =
          catalog.importFeedSnapshot(feed, Format.FEED_TSV, ImportOptions.allOrNothing());
      assertThat(snapshot.report().imported()).isEqualTo(3);
    }
  }

  @ParameterizedTest
  @CsvSource({
    "/bomb.tsv,    the gzip expands more than 100 times",
    "/huge.xml.gz, the text at line 6 is longer than 262144 characters: the file is refused",
    "/huge.xml,    the text at line 6 is longer than 262144 characters: the file is refused"
  })
  void a_round_refuses_the_feed_in_a_small_heap_and_changes_nothing(String path, String reason)
      throws Exception {
    Path work = Files.createDirectories(dir.resolve("product-feed"));
    Files.writeString(
        work.resolve("fetch-8613.part"), "the body a round whose JVM died was reading");
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + path + "?token=" + TOKEN;
    var before = catalog.list(Optional.empty(), 10);

    ChildJvm.Exit exit = ChildJvm.run(
        FeedRoundProbe.class,
        NODE_HEAP,
        List.of(
            TestDatabases.embeddedServer().jdbcUrl(),
            database.schema(),
            url,
            work.toString(),
            Long.toString(MAX_BYTES)),
        Map.of(),
        Duration.ofSeconds(120));

    System.out.printf("round of %s in %d ms:%n%s%n", path, exit.took().toMillis(), exit.output());
    assertThat(exit.status()).as(exit.output()).isZero();
    assertThat(exit.output())
        .contains("outcome invalid, counted 1")
        .containsOnlyOnce("product feed: http://127.0.0.1:"
            + server.getAddress().getPort() + path + " not imported, nothing was written: ")
        .contains(reason)
        .doesNotContain(TOKEN);
    assertThat(work).as("the round's file and the one left before it").isEmptyDirectory();
    assertThat(catalog.list(Optional.empty(), 10))
        .as("no product of the feed marked unavailable, none changed")
        .isEqualTo(before);
  }

  @ParameterizedTest
  @CsvSource({
    "feed.tsv.gz, bomb, refused: the gzip expands more than 100 times",
    "feed.xml.gz, huge, 'line 6: the text at line 6 is longer than 262144 characters'"
  })
  void the_import_command_refuses_the_file_in_a_small_heap_naming_the_line_and_the_limit(
      String name, String content, String refusal) throws Exception {
    Path file = Files.write(dir.resolve(name), content.equals("bomb") ? bomb : hugeXml);
    Path data = Files.createDirectories(dir.resolve("data"));

    ChildJvm.Exit exit = ChildJvm.run(
        Main.class,
        NODE_HEAP,
        List.of("import", "products", file.toString()),
        Map.of(
            "TIDINGS_DATA_DIR",
            data.toString(),
            "TIDINGS_DB_URL",
            TestDatabases.embeddedServer().jdbcUrl(),
            "TIDINGS_DB_USER",
            "postgres"),
        Duration.ofSeconds(120));

    System.out.printf("import of %s in %d ms:%n%s%n", name, exit.took().toMillis(), exit.output());
    assertThat(exit.status()).as(exit.output()).isEqualTo(1);
    assertThat(exit.output()).contains(refusal).contains("nothing was imported.");
    assertThat(data).isEmptyDirectory();
  }
}
