package dev.tidings.opentime.card;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.tidings.WebUrl;
import dev.tidings.catalog.Product;
import dev.tidings.fetch.FetchAllowance;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.awt.Color;
import java.awt.GraphicsEnvironment;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProductCardsTest {
  private static final Duration TIMEOUT = Duration.ofMillis(1500);

  @TempDir
  Path cache;

  private HttpServer server;
  private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  private ProductCards cards;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] red = png(solid(800, 600, Color.RED));
    server.createContext("/", exchange -> {
      var path = exchange.getRequestURI().getPath();
      requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
      try (exchange) {
        if (path.startsWith("/red")) {
          exchange.getResponseHeaders().add("Content-Type", "image/png");
          exchange.sendResponseHeaders(200, red.length);
          exchange.getResponseBody().write(red);
        } else {
          exchange.sendResponseHeaders(500, -1);
        }
      }
    });
    server.start();
    cards = cards(cache);
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void rendering_runs_headless() {
    assertThat(GraphicsEnvironment.isHeadless()).isTrue();
  }

  @Test
  void a_card_is_a_png_of_the_fixed_size_with_the_product_picture_on_top() throws IOException {
    var image = decode(cards.card(product("sku-1", "/red.png", "9.99"), Locale.ENGLISH));

    assertThat(image.getWidth()).isEqualTo(CardRenderer.WIDTH);
    assertThat(image.getHeight()).isEqualTo(CardRenderer.HEIGHT);
    for (int[] point : new int[][] {{20, 20}, {300, 250}, {580, 480}}) {
      assertThat(new Color(image.getRGB(point[0], point[1]))).isEqualTo(Color.RED);
    }
    assertThat(new Color(image.getRGB(300, CardRenderer.HEIGHT - 10))).isEqualTo(Color.WHITE);
    assertThat(inkInPriceBand(image)).isGreaterThan(100);
  }

  @Test
  void the_price_is_written_for_the_locale() throws IOException {
    var product = product("sku-1", "/red.png", "1234.50");

    var english = cards.card(product, Locale.ENGLISH);
    var german = cards.card(product, Locale.GERMAN);

    assertThat(english).isNotEqualTo(german);
    assertThat(english.etag()).isNotEqualTo(german.etag());
    var englishImage = decode(english);
    var germanImage = decode(german);
    assertThat(differingPixels(
            englishImage, germanImage, CardRenderer.HEIGHT - 100, CardRenderer.HEIGHT))
        .isGreaterThan(100);
    assertThat(differingPixels(englishImage, germanImage, 0, CardRenderer.PICTURE_HEIGHT))
        .isZero();
  }

  @Test
  void an_unreachable_picture_still_gives_a_card_within_the_timeout() throws IOException {
    int closedPort;
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    var product = new Product(
        "sku-gone",
        "Linen shirt",
        Optional.of("Acme"),
        Optional.empty(),
        new BigDecimal("49.00"),
        Currency.getInstance("EUR"),
        WebUrl.of("http://127.0.0.1:" + closedPort + "/shirt.png"),
        WebUrl.of("https://shop.example/shirt"),
        true,
        Map.of());

    long started = System.nanoTime();
    var allowingTheClosedPort = new ProductCards(
        cache.resolve("closed"),
        options(),
        FetchAllowance.addressAndPort(InetAddress.getLoopbackAddress(), closedPort),
        new SimpleMeterRegistry());
    var image = decode(allowingTheClosedPort.card(product, Locale.ENGLISH));
    var elapsed = Duration.ofNanos(System.nanoTime() - started);

    assertThat(elapsed).isLessThan(TIMEOUT.plusSeconds(1));
    assertThat(image.getWidth()).isEqualTo(CardRenderer.WIDTH);
    assertThat(new Color(image.getRGB(20, 20))).isNotEqualTo(Color.RED);
    assertThat(inkInPriceBand(image)).isGreaterThan(100);
  }

  @Test
  void a_picture_on_a_loopback_private_or_metadata_address_is_never_fetched_and_the_card_is_served()
      throws IOException {
    var guarded = new ProductCards(
        cache.resolve("guarded"), options(), FetchAllowance.none(), new SimpleMeterRegistry());
    int port = server.getAddress().getPort();
    for (String url : List.of(
        "http://127.0.0.1:" + port + "/red.png",
        "http://localhost:" + port + "/red-by-name.png",
        "http://[::ffff:127.0.0.1]:" + port + "/red-mapped.png",
        "http://169.254.169.254/latest/meta-data/red.png",
        "http://10.0.0.1/red.png")) {
      var product = new Product(
          "sku-" + url.hashCode(),
          "Linen shirt",
          Optional.of("Acme"),
          Optional.empty(),
          new BigDecimal("49.00"),
          Currency.getInstance("EUR"),
          WebUrl.of(url),
          WebUrl.of("https://shop.example/shirt"),
          true,
          Map.of());

      var image = decode(guarded.card(product, Locale.ENGLISH));

      assertThat(image.getWidth()).as(url).isEqualTo(CardRenderer.WIDTH);
      assertThat(new Color(image.getRGB(20, 20))).as(url).isNotEqualTo(Color.RED);
      assertThat(inkInPriceBand(image)).as(url).isGreaterThan(100);
    }
    assertThat(requests).isEmpty();
  }

  @Test
  void a_failing_picture_is_not_fetched_again_for_a_while() throws IOException {
    var first = cards.card(product("sku-1", "/broken.png", "10.00"), Locale.ENGLISH);
    var second = cards.card(product("sku-2", "/broken.png", "12.00"), Locale.GERMAN);

    assertThat(requests.get("/broken.png")).hasValue(1);
    assertThat(cards.imageFetches()).isEqualTo(1);
    assertThat(decode(first).getWidth()).isEqualTo(CardRenderer.WIDTH);
    assertThat(decode(second).getWidth()).isEqualTo(CardRenderer.WIDTH);
  }

  @Test
  void a_picture_is_fetched_once_for_all_its_cards() {
    cards.card(product("sku-1", "/red.png", "10.00"), Locale.ENGLISH);
    cards.card(product("sku-1", "/red.png", "10.00"), Locale.GERMAN);
    cards.card(product("sku-1", "/red.png", "11.00"), Locale.ENGLISH);

    assertThat(cards.renders()).isEqualTo(3);
    assertThat(requests.get("/red.png")).hasValue(1);
  }

  @Test
  void the_second_call_is_served_from_memory() {
    var product = product("sku-1", "/red.png", "10.00");

    var first = cards.card(product, Locale.ENGLISH);
    var second = cards.card(product, Locale.ENGLISH);

    assertThat(second).isSameAs(first);
    assertThat(cards.renders()).isEqualTo(1);
  }

  @Test
  void a_new_process_reads_cards_and_pictures_from_disk() {
    var product = product("sku-1", "/red.png", "10.00");
    var first = cards.card(product, Locale.ENGLISH);

    var restarted = cards(cache);
    var again = restarted.card(product, Locale.ENGLISH);
    var otherLocale = restarted.card(product, Locale.GERMAN);

    assertThat(again).isEqualTo(first);
    assertThat(restarted.renders()).isEqualTo(1);
    assertThat(decode(otherLocale).getRGB(300, 250)).isEqualTo(Color.RED.getRGB());
    assertThat(requests.get("/red.png")).hasValue(1);
  }

  @Test
  void a_changed_product_gets_a_new_card() {
    var before = cards.card(product("sku-1", "/red.png", "10.00"), Locale.ENGLISH);
    var after = cards.card(product("sku-1", "/red.png", "8.00"), Locale.ENGLISH);

    assertThat(after).isNotEqualTo(before);
    assertThat(cards.renders()).isEqualTo(2);
  }

  @Test
  void the_etag_is_stable_for_a_card_and_differs_between_products() {
    var one = cards.card(product("sku-1", "/red.png", "10.00"), Locale.ENGLISH);
    var sameAgain =
        cards(cache.resolve("other")).card(product("sku-1", "/red.png", "10.00"), Locale.ENGLISH);
    var another = cards.card(product("sku-2", "/red.png", "20.00"), Locale.ENGLISH);

    assertThat(one.etag()).matches("\"[0-9a-f]{32}\"");
    assertThat(sameAgain.etag()).isEqualTo(one.etag());
    assertThat(sameAgain).isEqualTo(one).hasSameHashCodeAs(one);
    assertThat(another.etag()).isNotEqualTo(one.etag());
  }

  @Test
  void concurrent_requests_for_one_missing_card_render_it_once() throws Exception {
    var product = product("sku-1", "/red.png", "10.00");
    var start = new CountDownLatch(1);
    var results = new ArrayList<Future<Card>>();
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 20; i++) {
        results.add(threads.submit(() -> {
          start.await();
          return cards.card(product, Locale.ENGLISH);
        }));
      }
      start.countDown();
    }

    var first = results.getFirst().get();
    for (var result : results) assertThat(result.get()).isEqualTo(first);
    assertThat(cards.renders()).isEqualTo(1);
    assertThat(requests.get("/red.png")).hasValue(1);
  }

  @Test
  void the_generic_card_has_the_card_size_and_no_text() throws IOException {
    var generic = cards.generic();
    var image = decode(generic);

    assertThat(image.getWidth()).isEqualTo(CardRenderer.WIDTH);
    assertThat(image.getHeight()).isEqualTo(CardRenderer.HEIGHT);
    assertThat(cards.generic()).isEqualTo(generic);
    assertThat(inkInPriceBand(image)).isZero();
  }

  private Product product(String id, String picturePath, String price) {
    return new Product(
        id,
        "Merino wool crew-neck sweater with ribbed cuffs and a relaxed fit",
        Optional.of("Northwind"),
        Optional.of("Knitwear"),
        new BigDecimal(price),
        Currency.getInstance("EUR"),
        WebUrl.of("http://127.0.0.1:" + server.getAddress().getPort() + picturePath),
        WebUrl.of("https://shop.example/" + id),
        true,
        Map.of());
  }

  /** Cards whose pictures may come from the test server on loopback, and from nowhere else there. */
  private ProductCards cards(Path directory) {
    return new ProductCards(
        directory,
        options(),
        FetchAllowance.addressAndPort(
            server.getAddress().getAddress(), server.getAddress().getPort()),
        new SimpleMeterRegistry());
  }

  private static ProductCards.Options options() {
    var defaults = ProductCards.Options.defaults();
    return new ProductCards.Options(
        TIMEOUT,
        defaults.maxImageBytes(),
        defaults.imagesInMemory(),
        defaults.cardBytesInMemory(),
        defaults.failureMemory());
  }

  /** Dark pixels (text) in the band where the price is drawn. */
  private static int inkInPriceBand(BufferedImage image) {
    int ink = 0;
    for (int y = CardRenderer.HEIGHT - 90; y < CardRenderer.HEIGHT - 30; y++) {
      for (int x = 30; x < CardRenderer.WIDTH - 30; x++) {
        var c = new Color(image.getRGB(x, y));
        if (c.getRed() + c.getGreen() + c.getBlue() < 200) ink++;
      }
    }
    return ink;
  }

  private static int differingPixels(BufferedImage a, BufferedImage b, int fromY, int toY) {
    int differing = 0;
    for (int y = fromY; y < toY; y++)
      for (int x = 0; x < a.getWidth(); x++) if (a.getRGB(x, y) != b.getRGB(x, y)) differing++;
    return differing;
  }

  private static BufferedImage decode(Card card) {
    try {
      var image = ImageIO.read(new ByteArrayInputStream(card.png()));
      assertThat(image).as("decodes as an image").isNotNull();
      return image;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static BufferedImage solid(int width, int height, Color color) {
    var image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    var g = image.createGraphics();
    g.setColor(color);
    g.fillRect(0, 0, width, height);
    g.dispose();
    return image;
  }

  private static byte[] png(BufferedImage image) throws IOException {
    var out = new ByteArrayOutputStream();
    ImageIO.write(image, "png", out);
    return out.toByteArray();
  }
}
