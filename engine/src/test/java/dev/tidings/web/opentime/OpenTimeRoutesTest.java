package dev.tidings.web.opentime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidings.Json;
import dev.tidings.WebUrl;
import dev.tidings.audience.SubscriberService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.config.Secret;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import dev.tidings.opentime.Engagement;
import dev.tidings.opentime.EngagementRecorder;
import dev.tidings.opentime.SlotChooser;
import dev.tidings.opentime.SlotImages;
import dev.tidings.opentime.card.ProductCards;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommendations.Recommended;
import dev.tidings.recommend.Recommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The email-facing routes through a real server on an embedded PostgreSQL: an email's slot images
 * arriving at once show k distinct products chosen once, a slot's link lands on the product its image
 * shows, and whatever is not a valid token gets the neutral answer and records nothing.
 */
@StartsServers
class OpenTimeRoutesTest {
  private static final String KEY = "open-time-test-key-0123456789";
  private static final URI SHOP = URI.create("https://shop.example/");
  private static final AtomicInteger recommendations = new AtomicInteger();
  private static Database database;
  private static CatalogService catalog;
  private static WorkQueue queue;
  /** Every engagement the routes handed to the queue, as a consumer receives them. */
  private static final List<Engagement> queued = new CopyOnWriteArrayList<>();

  private static final List<Engagement> forDelivery = new CopyOnWriteArrayList<>();

  private static SlotChooser chooser;
  private static EngagementRecorder engagements;
  private static HttpServer server;
  private static TokenCodec tokens;
  private static Path cards;
  private static final HttpClient http = HttpClient.newBuilder()
      .followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @BeforeAll
  static void start() throws IOException {
    database = TestDatabases.embedded();
    InstantSource clock = InstantSource.system();
    catalog = new CatalogService(database.jdbi(), clock);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String id = "prod-" + i;
      ids.add(id);
      catalog.put(new Product(
          id,
          "Product " + i,
          Optional.of("Brand " + (i % 3)),
          Optional.empty(),
          new BigDecimal("19.90"),
          Currency.getInstance("EUR"),
          WebUrl.of("http://127.0.0.1:9/" + id + ".png"),
          WebUrl.of("https://shop.example/p/" + id),
          true,
          Map.of()));
    }
    Recommender shuffled = request -> {
      if (request.subscriberId().startsWith("landing-"))
        return new Recommendations(List.of(new Recommended(request.subscriberId(), "test", 1)));
      if (request.subscriberId().equals("broken"))
        throw new IllegalStateException("the recommender's database is down");
      recommendations.incrementAndGet();
      List<String> order = new ArrayList<>(ids);
      Collections.shuffle(order, new Random(request.subscriberId().hashCode()));
      return new Recommendations(order.stream()
          .filter(id -> !request.exclude().contains(id))
          .limit(request.k())
          .map(id -> new Recommended(id, "test", 1))
          .toList());
    };
    var metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    chooser = new SlotChooser(
        InProcessCoordination.computeOnce(clock),
        shuffled,
        database.jdbi(),
        clock,
        metrics,
        SlotChooser.Options.defaults());
    cards = Files.createTempDirectory("tidings-cards-test");
    var images = new SlotImages(
        chooser,
        new ProductCards(cards, ProductCards.Options.defaults(), FetchAllowance.none(), metrics),
        catalog,
        new SubscriberService(database.jdbi(), clock));
    queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    engagements = new EngagementRecorder(queue, 10_000);
    queue.subscribeBatches(
        EngagementRecorder.TOPIC.name(), 1, 100, EngagementRecorder.TOPIC.batchHandler(batch -> {
          batch.forEach(received -> queued.addAll(received.value().items()));
          return BatchResult.ACK_ALL;
        }));
    queue.subscribeBatches(
        EngagementRecorder.RECEIPTS_TOPIC.name(),
        1,
        100,
        EngagementRecorder.RECEIPTS_TOPIC.batchHandler(batch -> {
          batch.forEach(received -> forDelivery.addAll(received.value().items()));
          return BatchResult.ACK_ALL;
        }));
    tokens = TokenCodec.of(new Secret("open-time-test-secret-0123"));
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        metrics,
        List.of(),
        List.of(new OpenTimeRoutes(tokens, chooser, images, engagements, SHOP, clock, metrics)));
  }

  @AfterAll
  static void stop() {
    server.close();
    engagements.close();
    chooser.close();
    queue.close();
    database.close();
  }

  private static String token(String subscriber, int slots) {
    return tokens.encode(
        new MessageToken(new MessageId(42, System.nanoTime(), subscriber), Instant.now(), slots));
  }

  private static HttpResponse<byte[]> send(String method, String path, boolean withKey) {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(30))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (withKey) request.header("Authorization", "Bearer " + KEY);
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static HttpResponse<byte[]> get(String path) {
    return send("GET", path, false);
  }

  private static List<String> keptProducts(String token) {
    var answer = send("GET", "/api/v1/messages/" + token + "/slots", true);
    assertThat(answer.statusCode()).isEqualTo(200);
    List<String> products = new ArrayList<>();
    Json.MAPPER
        .readTree(answer.body())
        .path("productIds")
        .forEach(id -> products.add(id.asString()));
    return products;
  }

  @Test
  void the_slots_of_one_email_fired_at_once_show_k_distinct_products_chosen_once()
      throws Exception {
    int before = recommendations.get();
    String token = token("ada", 5);
    List<Integer> order = new ArrayList<>();
    for (int round = 0; round < 3; round++) IntStream.range(0, 5).forEach(order::add);
    Collections.shuffle(order, new Random(7));
    List<Future<HttpResponse<byte[]>>> answers = new ArrayList<>();
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int slot : order) answers.add(pool.submit(() -> get("/o/" + token + "/" + slot)));
      for (Future<HttpResponse<byte[]>> answer : answers) {
        assertThat(answer.get().statusCode()).isEqualTo(200);
        assertThat(answer.get().headers().firstValue("Content-Type")).contains("image/png");
        assertThat(answer.get().body()).startsWith(0x89, 'P', 'N', 'G');
      }
    }

    assertThat(recommendations.get() - before)
        .as("lists computed for the email")
        .isEqualTo(1);
    assertThat(keptProducts(token)).hasSize(5).doesNotHaveDuplicates();
  }

  @Test
  void a_slot_link_lands_on_the_product_its_image_shows_even_before_any_image() {
    String clickedFirst = token("bo", 4);
    var click = get("/c/" + clickedFirst + "/2");

    List<String> products = keptProducts(clickedFirst);
    assertThat(click.statusCode()).isEqualTo(302);
    assertThat(click.headers().firstValue("Location"))
        .contains("https://shop.example/p/" + products.get(2));
    var image = get("/o/" + clickedFirst + "/2");
    var sameSlotAgain = get("/o/" + clickedFirst + "/2");
    assertThat(image.headers().firstValue("ETag"))
        .isEqualTo(sameSlotAgain.headers().firstValue("ETag"));
    assertThat(keptProducts(clickedFirst)).isEqualTo(products);
  }

  @Test
  void a_stored_landing_url_that_no_redirect_can_name_lands_on_the_shop_and_is_never_a_500() {
    for (String landing : List.of("http://[1.2.3]/x", "https://shop.example/a\u00a0b")) {
      String id = "landing-" + Integer.toHexString(landing.hashCode());
      catalog.put(new Product(
          id,
          "Stored before the check",
          Optional.empty(),
          Optional.empty(),
          new BigDecimal("5.00"),
          Currency.getInstance("EUR"),
          WebUrl.of("http://127.0.0.1:9/" + id + ".png"),
          WebUrl.of("https://shop.example/p/" + id),
          true,
          Map.of()));
      database
          .jdbi()
          .useHandle(handle -> handle
              .createUpdate("UPDATE products SET landing_url = :url WHERE id = :id")
              .bind("url", landing)
              .bind("id", id)
              .execute());
      String token = token(id, 1);

      var click = get("/c/" + token + "/0");
      var image = get("/o/" + token + "/0");

      assertThat(click.statusCode()).as(landing).isEqualTo(302);
      assertThat(click.headers().firstValue("Location")).as(landing).contains(SHOP.toString());
      assertThat(image.statusCode()).as(landing).isEqualTo(200);
    }
  }

  @Test
  void an_unchanged_card_is_answered_304() {
    String token = token("cy", 3);
    String etag = get("/o/" + token + "/1").headers().firstValue("ETag").orElseThrow();

    var again = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/o/" + token + "/1"))
        .header("If-None-Match", etag)
        .build();
    try {
      assertThat(http.send(again, HttpResponse.BodyHandlers.discarding()).statusCode())
          .isEqualTo(304);
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void what_is_not_a_valid_token_gets_the_neutral_answer_and_records_nothing() throws Exception {
    String valid = token("dee", 4);
    String tampered =
        valid.substring(0, 10) + (valid.charAt(10) == 'A' ? 'B' : 'A') + valid.substring(11);
    long depthBefore = engagementsQueued();
    byte[] generic = get("/o/garbage/0").body();

    for (String bad : List.of(tampered, "garbage", "A".repeat(300))) {
      var image = get("/o/" + bad + "/0");
      assertThat(image.statusCode()).isEqualTo(200);
      assertThat(image.body()).isEqualTo(generic);
      var click = get("/c/" + bad + "/0");
      assertThat(click.statusCode()).isEqualTo(302);
      assertThat(click.headers().firstValue("Location")).contains(SHOP.toString());
      var pixel = get("/p/" + bad);
      assertThat(pixel.statusCode()).isEqualTo(200);
      assertThat(pixel.headers().firstValue("Content-Type")).contains("image/gif");
    }
    var beyondTheSlots = get("/o/" + valid + "/7");
    assertThat(beyondTheSlots.body()).isEqualTo(generic);
    assertThat(send("GET", "/api/v1/messages/" + tampered + "/slots", true).statusCode())
        .isEqualTo(404);
    assertThat(send("GET", "/api/v1/messages/" + valid + "/slots", true).statusCode())
        .isEqualTo(404);

    Thread.sleep(300); // a window for a wrongly recorded engagement to arrive
    assertThat(engagementsQueued()).as("engagements recorded").isEqualTo(depthBefore);
  }

  @Test
  void opens_images_and_clicks_are_queued_and_head_records_nothing() throws Exception {
    String token = token("eve", 2);
    long before = engagementsQueued();
    assertThat(send("HEAD", "/o/" + token + "/0", false).statusCode()).isEqualTo(200);
    assertThat(send("HEAD", "/p/" + token, false).statusCode()).isEqualTo(200);
    Thread.sleep(300); // a window for a wrongly recorded engagement to arrive
    assertThat(engagementsQueued()).isEqualTo(before);

    get("/p/" + token);
    get("/o/" + token + "/0");
    get("/c/" + token + "/1");

    await("three engagements queued")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> engagementsQueued() >= before + 3);
    assertThat(engagementsQueued()).isEqualTo(before + 3);
  }

  @Test
  void a_test_sends_email_shows_its_products_but_records_and_keeps_nothing() throws Exception {
    String token = tokens.encode(
        new MessageToken(new MessageId(42, MessageId.UNCOUNTED_RUN, "tess"), Instant.now(), 3));
    long before = engagementsQueued();

    var image = get("/o/" + token + "/1");
    var click = get("/c/" + token + "/1");
    var pixel = get("/p/" + token);

    assertThat(image.statusCode()).isEqualTo(200);
    assertThat(image.body())
        .as("a product's card, not the neutral one")
        .isNotEqualTo(get("/o/garbage/0").body());
    assertThat(click.statusCode()).isEqualTo(302);
    assertThat(click.headers().firstValue("Location").orElseThrow())
        .startsWith("https://shop.example/p/prod-");
    assertThat(pixel.statusCode()).isEqualTo(200);
    assertThat(engagementsQueued()).as("no open, image or click recorded").isEqualTo(before);
    assertThat(forDelivery).noneMatch(e -> e.subscriberId().equals("tess"));
    assertThat(send("GET", "/api/v1/messages/" + token + "/slots", true).statusCode())
        .as("no list kept: a kept list would count as an open of the campaign")
        .isEqualTo(404);
  }

  @Test
  void the_delivery_funnel_gets_every_engagement_too() throws Exception {
    String token = token("gil", 2);
    get("/p/" + token);
    get("/o/" + token + "/1");
    engagements.flush();

    await("gil's two engagements on the receipts topic")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .until(() ->
            forDelivery.stream().filter(e -> e.subscriberId().equals("gil")).count() >= 2);
    assertThat(forDelivery)
        .as("opens on the receipts topic, which the delivery capability consumes")
        .filteredOn(e -> e.subscriberId().equals("gil"))
        .hasSize(2);
  }

  @Test
  void a_failure_behind_a_slot_is_served_as_the_neutral_answer_not_an_error() {
    String token = token("broken", 3);
    byte[] generic = get("/o/garbage/0").body();

    var image = get("/o/" + token + "/1");
    var click = get("/c/" + token + "/1");

    assertThat(image.statusCode()).isEqualTo(200);
    assertThat(image.body()).isEqualTo(generic);
    assertThat(image.headers().firstValue("Cache-Control"))
        .as("a stand-in must not be kept by a mail proxy: the next fetch shows the products")
        .contains("no-store, private");
    assertThat(get("/o/garbage/0").headers().firstValue("Cache-Control"))
        .as("what no token can change is kept")
        .contains("public, max-age=604800");
    assertThat(click.statusCode()).isEqualTo(302);
    assertThat(click.headers().firstValue("Location")).contains(SHOP.toString());
  }

  @Test
  void the_slots_api_needs_the_api_key() {
    String token = token("fay", 2);
    get("/o/" + token + "/0");

    assertThat(send("GET", "/api/v1/messages/" + token + "/slots", false).statusCode())
        .isEqualTo(401);
  }

  /** Engagements received from the queue so far, once everything recorded has been published. */
  private static long engagementsQueued() {
    try {
      engagements.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    // an empty queue may still have a batch in the consumer's hands: wait until the count settles
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    long seen = -1;
    while (System.nanoTime() < deadline) {
      if (queue.depth(EngagementRecorder.TOPIC.name()) == 0 && queued.size() == seen) break;
      seen = queued.size();
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return queued.size();
  }
}
