package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.ActivityHistory;
import dev.tidings.audience.Consent;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.audience.SuppressionService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.history.SubscriberHistory;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.queue.postgres.PostgresQueueOptions;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.recommend.Recommendations;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Subscribers pages over HTTP, signed in: an operator suppresses a subscriber's address and lifts
 * it again with forms that carry the session's token, and a form without it, from another site or for
 * an unknown subscriber changes nothing.
 */
@StartsServers
class SubscriberPagesSessionTest {
  private static final String KEY = "subscriber-pages-key-0123456789";
  private static final InstantSource CLOCK = InstantSource.system();
  private static final PrometheusMeterRegistry REGISTRY =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private static Database database;
  private static PostgresWorkQueue queue;
  private static SuppressionService suppressions;
  private static HttpServer server;
  private static URI node;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  @BeforeAll
  static void start() {
    database = TestDatabases.embedded();
    var jdbi = database.jdbi();
    queue =
        new PostgresWorkQueue(database, PostgresQueueOptions.defaults(), new SimpleMeterRegistry());
    var subscribers = new SubscriberService(jdbi, CLOCK);
    subscribers.put(new Subscriber(
        "ann-1",
        "Ann@Example.com",
        Optional.of("Ann <A>"),
        Locale.GERMAN,
        ZoneId.of("Europe/Berlin"),
        Optional.empty(),
        Consent.SUBSCRIBED));
    jdbi.useHandle(handle -> {
      handle.execute("INSERT INTO message_status"
          + " (message_id, campaign_id, subscriber_id, status, status_at, sent_at)"
          + " VALUES ('m-1', 7, 'ann-1', 60, now(), now())");
      handle.execute("INSERT INTO message_steps (message_id, step, campaign_id, first_at, source)"
          + " SELECT 'm-1', step, 7, now(), 'test' FROM unnest(ARRAY[30, 50, 60, 61]) AS step");
      handle.execute("INSERT INTO message_slots"
          + " (message_id, subscriber_id, campaign_id, product_ids, chosen_at)"
          + " VALUES ('m-1', 'ann-1', 7, ARRAY['p-9'], now())");
      handle.execute(
          "INSERT INTO activity_events (user_id, type, item_id, occurred_at, received_at)"
              + " VALUES ('ann-1', 'open', 'campaign-7', now(), now())");
    });
    suppressions = new SuppressionService(jdbi, CLOCK);
    @SuppressWarnings("NullAway") // the campaign pages are never opened here
    var sources = new DashboardSources(
        null,
        null,
        new DeliveryStats(jdbi),
        new ShownProducts(jdbi),
        new CatalogService(jdbi, CLOCK),
        new Notifications(
            jdbi, CLOCK, Notifications.ProductShelf.ALL_AVAILABLE, new SimpleMeterRegistry()),
        null,
        subscribers,
        request -> new Recommendations(List.of()),
        List.of(),
        queue,
        List.of(),
        () -> new DashboardSources.Counting(0, Duration.ZERO),
        List::of,
        new Secret(KEY),
        CLOCK,
        false);
    var pages = new SubscriberPagesSources(
        subscribers,
        new FollowService(jdbi, CLOCK),
        suppressions,
        new SuppressionChanges(REGISTRY),
        new SubscriberHistory(
            new DeliveryStats(jdbi),
            new ShownProducts(jdbi),
            id -> Optional.of("Campaign <seven>"),
            new ActivityHistory(jdbi)),
        new CatalogService(jdbi, CLOCK),
        request -> new Recommendations(List.of()),
        CLOCK);
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        REGISTRY,
        List.of(),
        List.of(new DashboardRoutes(
            sources,
            Optional.empty(),
            new SessionSignOuts(jdbi, CLOCK),
            Optional.empty(),
            REGISTRY,
            Optional.of(pages))));
    node = URI.create("http://127.0.0.1:" + server.port());
  }

  @AfterAll
  static void stop() {
    server.close();
    queue.close();
    database.close();
  }

  private HttpResponse<String> get(String path, Optional<String> cookie) throws Exception {
    var request = HttpRequest.newBuilder(node.resolve(path));
    cookie.ifPresent(value -> request.header("Cookie", value));
    return client.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String form, Optional<String> cookie)
      throws Exception {
    var request = HttpRequest.newBuilder(node.resolve(path))
        .header("Content-Type", "application/x-www-form-urlencoded");
    cookie.ifPresent(value -> request.header("Cookie", value));
    return client.send(
        request.POST(HttpRequest.BodyPublishers.ofString(form)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String signIn() throws Exception {
    var answer = post("/signin", "key=" + KEY + "&next=%2Fsubscribers", Optional.empty());
    assertThat(answer.statusCode()).isEqualTo(303);
    String set = answer.headers().firstValue("Set-Cookie").orElseThrow();
    return set.substring(0, set.indexOf(';'));
  }

  private String token(String cookie) throws Exception {
    String page = get("/subscribers/ann-1", Optional.of(cookie)).body();
    var found = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page);
    assertThat(found.find()).as("a form token on the page").isTrue();
    return found.group(1);
  }

  private static double changed(String action) {
    return REGISTRY
        .get(SuppressionChanges.METRIC)
        .tag("source", "dashboard")
        .tag("action", action)
        .counter()
        .count();
  }

  private static String location(HttpResponse<String> answer) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(303);
    return answer.headers().firstValue("Location").orElseThrow();
  }

  @Test
  void an_operator_suppresses_an_address_and_lifts_it_with_the_sessions_token_only()
      throws Exception {
    String cookie = signIn();
    String token = token(cookie);
    String add = "/subscribers/ann-1/suppression/add";
    String lift = "/subscribers/ann-1/suppression/lift";

    var page = get("/subscribers/ann-1", Optional.of(cookie));
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body())
        .contains("Campaign &lt;seven&gt;", "humanOpened", "p-9", "campaign-7")
        .contains("action=\"/subscribers/ann-1/suppression/add\"");

    for (String form : List.of(
        "reason=manual", "_csrf=&reason=manual", "_csrf=" + token(signIn()) + "&reason=manual"))
      assertThat(post(add, form, Optional.of(cookie)).statusCode())
          .as("signed in, but " + form)
          .isEqualTo(403);
    var forged = client.send(
        HttpRequest.newBuilder(node.resolve(add))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Cookie", cookie)
            .header("Origin", "https://evil.example")
            .POST(HttpRequest.BodyPublishers.ofString("_csrf=" + token + "&reason=manual"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(forged.statusCode()).as("a form from another site").isEqualTo(403);
    var anonymous = post(add, "_csrf=" + token + "&reason=manual", Optional.empty());
    assertThat(location(anonymous)).startsWith("/signin");
    for (String reason : List.of("", "spite", "manual" + "x".repeat(40)))
      assertThat(post(add, "_csrf=" + token + "&reason=" + reason, Optional.of(cookie))
              .statusCode())
          .as("reason '" + reason + "'")
          .isEqualTo(400);
    assertThat(suppressions.isSuppressed("ann@example.com"))
        .as("nothing refused wrote")
        .isFalse();

    assertThat(location(post(add, "_csrf=" + token + "&reason=complaint", Optional.of(cookie))))
        .isEqualTo("/subscribers/ann-1?done=added");
    assertThat(suppressions.get("ann@example.com").orElseThrow().reason())
        .isEqualTo(SuppressionReason.COMPLAINT);
    assertThat(location(post(add, "_csrf=" + token + "&reason=manual", Optional.of(cookie))))
        .isEqualTo("/subscribers/ann-1?done=already");
    assertThat(changed("add")).isEqualTo(1);
    var suppressed = get("/subscribers/ann-1?done=added", Optional.of(cookie)).body();
    assertThat(suppressed)
        .contains("role=\"status\"", "reason <strong>complaint</strong>")
        .contains("action=\"/subscribers/ann-1/suppression/lift\"");
    assertThat(get("/subscribers?q=ann", Optional.of(cookie)).body())
        .contains("href=\"/subscribers/ann-1\"", "suppressed</span>");

    assertThat(post(lift, "_csrf=", Optional.of(cookie)).statusCode()).isEqualTo(403);
    assertThat(suppressions.isSuppressed("ann@example.com")).isTrue();
    assertThat(location(post(lift, "_csrf=" + token, Optional.of(cookie))))
        .isEqualTo("/subscribers/ann-1?done=lifted");
    assertThat(suppressions.isSuppressed("ann@example.com")).isFalse();
    assertThat(location(post(lift, "_csrf=" + token, Optional.of(cookie))))
        .isEqualTo("/subscribers/ann-1?done=gone");
    assertThat(changed("lift")).isEqualTo(1);
  }

  @Test
  void unknown_or_impossible_subscribers_and_bad_searches_are_answered_not_failed()
      throws Exception {
    String cookie = signIn();
    String token = token(cookie);
    assertThat(get("/subscribers/nobody", Optional.of(cookie)).statusCode()).isEqualTo(404);
    assertThat(get("/subscribers/no%20such%3Cid%3E", Optional.of(cookie)))
        .satisfies(answer -> assertThat(answer.statusCode()).isEqualTo(404))
        .satisfies(answer -> assertThat(answer.body()).contains("no such&lt;id&gt;"));
    assertThat(get("/subscribers/" + "x".repeat(300), Optional.of(cookie)).statusCode())
        .isEqualTo(404);
    assertThat(post(
                "/subscribers/nobody/suppression/add",
                "_csrf=" + token + "&reason=manual",
                Optional.of(cookie))
            .statusCode())
        .isEqualTo(404);
    assertThat(get("/subscribers?q=ann%01", Optional.of(cookie)))
        .satisfies(answer -> assertThat(answer.statusCode()).isEqualTo(400))
        .satisfies(answer -> assertThat(answer.body()).contains("role=\"alert\""));
    assertThat(get("/subscribers?q=" + "a".repeat(300), Optional.of(cookie)).statusCode())
        .isEqualTo(400);
    assertThat(get("/subscribers?after=a%20b", Optional.of(cookie)).statusCode())
        .isEqualTo(400);
    assertThat(get("/subscribers?q=%25", Optional.of(cookie)).statusCode()).isEqualTo(200);
    assertThat(get("/subscribers", Optional.empty()).statusCode())
        .as("not signed in: off to the form")
        .isEqualTo(303);
  }
}
