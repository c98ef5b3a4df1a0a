package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.config.Secret;
import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.recommend.blend.AlgorithmSettings;
import dev.tidings.recommend.blend.JdbiSettingsStore;
import dev.tidings.recommend.blend.Keys;
import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.recommend.RecommendRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * The recommendation routes over the real PostgreSQL, on two nodes sharing it: aggregates written as
 * the activity capability counts them come back as the expected products with the expected reasons,
 * and a change of the settings through one node's API reaches the other node's answers within
 * seconds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecommendRoutesIT {
  private static final String KEY = "tk_recommend_test_key_0123456789";
  private static final LocalDate TODAY = LocalDate.now(ZoneOffset.UTC);
  private final String user = "u:" + UUID.randomUUID(); // a ':' in an id must survive the keys
  private final String follower = "f-" + UUID.randomUUID();
  private Database database;
  private final List<LiveRecommender> recommenders = new ArrayList<>();
  private final List<HttpServer> servers = new ArrayList<>();
  private ApiClient nodeA;
  private ApiClient nodeB;

  @BeforeAll
  void start() {
    database = TestDatabases.real();
    Instant now = Instant.now();
    database.jdbi().useHandle(handle -> {
      for (int i = 0; i < 20; i++)
        product(
            handle,
            "p-" + i,
            i % 2 == 0 ? "Velin" : "Other",
            "cat-" + (i % 4),
            true,
            now.minus(Duration.ofDays(200)));
      product(handle, "gone", "Velin", "cat-0", false, now.minus(Duration.ofDays(200)));
      product(handle, "fresh", "Nova", "cat-9", true, now.minus(Duration.ofDays(1)));
      handle.execute(
          "INSERT INTO subscribers (id, email, created_at, updated_at) VALUES (?, ?, now(), now())",
          follower,
          follower + "@example.com");
      handle.execute(
          "INSERT INTO follows (subscriber_id, target_type, target_id, followed_at) VALUES (?, 'brand', 'Nova', now())",
          follower);
    });
    var deltas = new HashMap<AggregateKey, Double>();
    var day = new KeyPart.Day(TODAY);
    var all = new KeyPart.AllTime();
    var month = new KeyPart.Month(YearMonth.from(TODAY));
    for (int i = 0; i < 20; i++) {
      deltas.put(Keys.itemPopularity("p-" + i, day), 100.0 - i);
      deltas.put(Keys.itemPopularity("p-" + i, all), 100.0 - i);
    }
    deltas.put(Keys.itemPopularity("gone", day), 1000.0);
    deltas.put(Keys.purchases(user, "p-19", month), 2.0);
    deltas.put(Keys.purchases(user, "p-19", all), 2.0);
    deltas.put(Keys.views(user, "p-18", day), 3.0);
    deltas.put(Keys.views(user, "gone", day), 9.0);
    deltas.put(Keys.coView("p-18", "p-17", all), 5.0);
    deltas.put(Keys.coView("p-17", "p-18", all), 5.0);
    new AggregateStore(database.jdbi()).add(deltas);
    // the weights the answers below follow from (popularity light, co-occurrence and EASE heavy),
    // stored as an operator would, so they hold whatever the defaults become
    var settings = new JdbiSettingsStore(database.jdbi());
    settings.save(Algorithm.POPULARITY, new AlgorithmSettings(true, 0.05, Map.of()));
    settings.save(Algorithm.CO_OCCURRENCE, new AlgorithmSettings(true, 0.6, Map.of()));
    settings.save(Algorithm.EASE, new AlgorithmSettings(true, 0.5, Map.of()));
    nodeA = node();
    nodeB = node();
  }

  private static void product(
      Handle handle, String id, String brand, String category, boolean available, Instant created) {
    handle.execute(
        """
        INSERT INTO products (id, title, brand, category, price, currency, image_url, landing_url, available,
          created_at, updated_at)
        VALUES (?, ?, ?, ?, 10, 'EUR', 'https://img.example/x.png', 'https://shop.example/x', ?, ?, ?)""",
        id,
        "Product " + id,
        brand,
        category,
        available,
        Timestamp.from(created),
        Timestamp.from(created));
  }

  /** A node with the default options: settings re-read every 2 s. */
  private ApiClient node() {
    var recommender = LiveRecommender.of(
        database.jdbi(),
        InstantSource.system(),
        LiveRecommender.Options.defaults(),
        new SimpleMeterRegistry());
    recommenders.add(recommender);
    var server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new RecommendRoutes(
            recommender, InstantSource.system(), Duration.ofMillis(500), 8 * 1024)));
    servers.add(server);
    return new ApiClient(server.port(), KEY);
  }

  @AfterAll
  void stop() {
    servers.forEach(HttpServer::close);
    recommenders.forEach(LiveRecommender::close);
    database.close();
  }

  private static String path(String user, int n) {
    return "/api/v1/users/"
        + URLEncoder.encode(user, StandardCharsets.UTF_8).replace("+", "%20")
        + "/recommendations?n=" + n;
  }

  private static Map<String, List<String>> reasons(ApiClient.Answer answer) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    var reasons = new LinkedHashMap<String, List<String>>();
    for (JsonNode item : answer.json().path("items")) {
      var why = new ArrayList<String>();
      item.path("reasons").forEach(reason -> why.add(reason.asString()));
      reasons.put(item.path("id").asString(), why);
    }
    return reasons;
  }

  @Test
  void the_aggregates_come_back_as_products_with_the_algorithms_that_chose_them() {
    var items = reasons(nodeA.get(path(user, 5)));
    assertThat(items).hasSize(5).doesNotContainKey("gone");
    // bought (buy again 1.0) and a neighbour of the viewed p-18 (co-occurrence 0.6, EASE 0.5 once
    // fitted) lead; the trending p-0 does not, at popularity's 0.05
    assertThat(new ArrayList<>(items.keySet()).subList(0, 2))
        .containsExactlyInAnyOrder("p-19", "p-17");
    assertThat(items.get("p-19")).first().isEqualTo("buy_again");
    assertThat(items.get("p-18")).first().isEqualTo("recently_viewed");
    assertThat(items.get("p-17")).contains("co_occurrence");
  }

  @Test
  void followed_brands_bring_their_new_products_and_a_stranger_gets_trending_ones() {
    var followed = reasons(nodeA.get(path(follower, 3)));
    assertThat(followed.get("fresh")).containsExactly("new_items");

    var stranger = reasons(nodeA.get(path("nobody-" + UUID.randomUUID(), 10)));
    assertThat(stranger).hasSize(10).doesNotContainKey("gone");
    assertThat(stranger.values()).allSatisfy(why -> assertThat(why).contains("popularity"));
    assertThat(stranger.keySet()).first().isEqualTo("p-0");
  }

  @Test
  void a_change_through_one_node_reaches_the_other_nodes_answers_within_seconds() throws Exception {
    assertThat(reasons(nodeB.get(path(user, 5))).get("p-19")).contains("buy_again");
    try {
      var changed = nodeA.putJson("/api/v1/recommenders/buy_again", "{\"enabled\": false}");
      assertThat(changed.status()).as(changed.body()).isEqualTo(200);
      long started = System.nanoTime();
      Map<String, List<String>> after = await("the other node to drop buy_again")
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> reasons(nodeB.get(path(user, 5))),
              shown -> shown.values().stream().noneMatch(why -> why.contains("buy_again")));
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(after.values()).noneSatisfy(why -> assertThat(why).contains("buy_again"));
      assertThat(took).isLessThan(Duration.ofSeconds(4));

      nodeA.putJson("/api/v1/recommenders/recently_viewed", "{\"weight\": 20}");
      started = System.nanoTime();
      await("the other node to rank p-18 first")
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> reasons(nodeB.get(path(user, 5))).keySet().iterator().next().equals("p-18"));
      assertThat(reasons(nodeB.get(path(user, 5))).keySet()).first().isEqualTo("p-18");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
    } finally {
      nodeA.putJson("/api/v1/recommenders/buy_again", "{\"enabled\": true}");
      nodeA.putJson("/api/v1/recommenders/recently_viewed", "{\"weight\": 0.5}");
    }
  }

  @Test
  void the_settings_list_every_algorithm_with_its_parameters() {
    var answer = nodeA.get("/api/v1/recommenders");
    assertThat(answer.status()).isEqualTo(200);
    var names = new ArrayList<String>();
    answer.json().path("algorithms").forEach(a -> names.add(a.path("name").asString()));
    assertThat(names)
        .containsExactly(
            "popularity",
            "co_occurrence",
            "affinity",
            "recently_viewed",
            "buy_again",
            "new_items",
            "ease");
    assertThat(answer
            .json()
            .path("algorithms")
            .path(6)
            .path("params")
            .path("lambda")
            .asDouble())
        .isEqualTo(300);
    assertThat(answer.json().path("blend").path("brandCap").asInt()).isEqualTo(3);
  }

  @Test
  void bad_input_is_a_4xx_that_says_what_is_wrong_and_changes_nothing() {
    var zero = nodeA.get(path(user, 0));
    assertThat(zero.status()).isEqualTo(400);
    assertThat(zero.detail()).contains("n must be between 1 and 50 but was 0");
    assertThat(nodeA.get(path(user, 51)).status()).isEqualTo(400);
    assertThat(nodeA.get("/api/v1/users/x/recommendations?n=ten").detail())
        .contains("whole number");

    var unknown = nodeA.putJson("/api/v1/recommenders/magic", "{\"weight\": 1}");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.detail()).contains("'magic'").contains("buy_again");

    var wrong = nodeA.putJson(
        "/api/v1/recommenders/ease",
        "{\"weight\": \"heavy\", \"params\": {\"lambda\": -1, \"depth\": 3}, \"colour\": 1}");
    assertThat(wrong.status()).isEqualTo(422);
    assertThat(wrong.detail())
        .contains("weight must be a number")
        .contains("params.lambda must be within 0.1..100000 but was -1")
        .contains("params.depth is not a parameter of ease")
        .contains("'colour' is not a setting");
    assertThat(nodeA.putJson("/api/v1/recommenders/ease", "{\"weight\": -2}").detail())
        .contains("weight must be within 0..100");
    assertThat(nodeA.putJson("/api/v1/recommenders/ease", "{\"weight\": ").status())
        .isEqualTo(400);
    assertThat(nodeA.putJson("/api/v1/recommenders/ease", "[1]").status()).isEqualTo(422);
    var cap = nodeA.putJson("/api/v1/recommenders/blend", "{\"brandCap\": 0}");
    assertThat(cap.status()).isEqualTo(422);
    assertThat(cap.detail()).contains("brandCap must be within 1..50 but was 0");

    var settings = nodeA.get("/api/v1/recommenders").json();
    assertThat(settings.path("algorithms").path(6).path("weight").asDouble()).isEqualTo(0.5);
    assertThat(settings.path("blend").path("brandCap").asInt()).isEqualTo(3);
  }
}
