package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.audience.SubscriberService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.HttpServer;
import dev.tidings.webhooks.WebhookDeadLetters;
import dev.tidings.webhooks.WebhookDelivery;
import dev.tidings.webhooks.WebhookEndpoints;
import dev.tidings.webhooks.WebhookUrls;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The webhook pages of the dashboard on the real PostgreSQL: an endpoint is registered (its secret
 * shown once), refused with the rule it broke, changed, rotated and deleted through guarded forms; the
 * System page lists it with its failures and the dead letters, and replaying one queues it again.
 * The pages are also written to {@code target/webhook-pages} for a look in a browser.
 */
class WebhookPagesIT {
  private static final String KEY = "webhook-pages-key-0123456789";
  private static Database database;
  private static PostgresWorkQueue queue;
  private static WebhookDeadLetters deadLetters;
  private static HttpServer server;
  private static URI node;
  private static final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  @BeforeAll
  static void start() {
    database = TestDatabases.real();
    queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    queue.declare(WebhookDelivery.TOPIC.spec());
    var jdbi = database.jdbi();
    var clock = InstantSource.system();
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    deadLetters = new WebhookDeadLetters(jdbi, queue, clock);
    var endpoints = new WebhookEndpoints(jdbi, new WebhookUrls(FetchAllowance.none()), clock);
    @SuppressWarnings("NullAway") // the campaign pages are never opened here
    var sources = new DashboardSources(
        null,
        null,
        new DeliveryStats(jdbi),
        new ShownProducts(jdbi),
        new CatalogService(jdbi, clock),
        new Notifications(
            jdbi, clock, Notifications.ProductShelf.ALL_AVAILABLE, new SimpleMeterRegistry()),
        null,
        new SubscriberService(jdbi, clock),
        request -> new dev.tidings.recommend.Recommendations(List.of()),
        List.of(),
        queue,
        List.of(WebhookDelivery.TOPIC.name()),
        () -> new DashboardSources.Counting(0, Duration.ZERO),
        List::of,
        new Secret(KEY),
        clock,
        false);
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        registry,
        List.of(),
        List.of(new DashboardRoutes(
            sources,
            Optional.empty(),
            new SessionSignOuts(jdbi, clock),
            Optional.empty(),
            registry,
            Optional.empty(),
            Optional.of(new WebhookPagesSources(endpoints, deadLetters)))));
    node = URI.create("http://127.0.0.1:" + server.port());
  }

  @AfterAll
  static void stop() {
    server.close();
    queue.close();
    database.close();
  }

  @Test
  void an_endpoint_is_managed_from_the_dashboard_and_its_dead_letters_replayed_from_system()
      throws Exception {
    String cookie = signIn();
    String token = token(cookie, "/webhooks");

    var refused = post(
        "/webhooks",
        "_csrf=" + token + "&url=" + encode("http://crm.shop.test/h") + "&enabled=on",
        cookie);
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.body()).contains("url must be an https URL");

    var created = post(
        "/webhooks",
        "_csrf=" + token + "&url=" + encode("https://crm.shop.test/tidings")
            + "&description=CRM&enabled=on&" + encode("type:dev.tidings.delivery.opened") + "=on",
        cookie);
    assertThat(created.statusCode()).isEqualTo(200);
    var secret = Pattern.compile("whsec_[A-Za-z0-9+/]{43}(=|&#61;)").matcher(created.body());
    assertThat(secret.find()).as(created.body()).isTrue();
    var id = Pattern.compile("ep_[0-9a-f]{16}").matcher(created.body());
    assertThat(id.find()).isTrue();
    String path = "/webhooks/" + id.group();

    var listed = get("/webhooks", cookie);
    assertThat(listed.body()).contains("https://crm.shop.test/tidings").doesNotContain("whsec_");
    var page = get(path, cookie);
    assertThat(page.body()).contains("CRM").doesNotContain("whsec_");
    assertThat(page.body())
        .containsPattern("name=\"type:dev.tidings.delivery.opened\" value=\"on\" checked");

    var changed = post(
        path,
        "_csrf=" + token + "&url=" + encode("https://crm.shop.test/v2") + "&description=CRM+v2",
        cookie);
    assertThat(changed.statusCode()).isEqualTo(303);
    assertThat(changed.headers().firstValue("Location")).hasValue(path + "?done=saved");
    var after = get(path + "?done=saved", cookie).body();
    assertThat(after).contains("https://crm.shop.test/v2").contains("disabled").contains("Saved.");
    assertThat(post(path, "url=" + encode("https://crm.shop.test/v3"), cookie).statusCode())
        .as("no form token")
        .isEqualTo(403);

    // a delivery that failed every attempt, as the sender leaves it
    database.jdbi().useHandle(handle -> handle.execute("""
        INSERT INTO webhook_dead_letters
          (endpoint_id, event_id, event_type, body, attempts, last_error, dead_at)
        VALUES (?, 'evt-42', 'dev.tidings.delivery.opened', '{"id":"evt-42"}', 9, 'status 503', now())""", id.group()));
    database
        .jdbi()
        .useHandle(handle -> handle.execute(
            "UPDATE webhook_endpoints SET last_failure_at = now(), last_failure = 'status 503',"
                + " failures_in_a_row = 9 WHERE id = ?",
            id.group()));
    var system = get("/system", cookie).body();
    assertThat(system)
        .contains("Outgoing webhooks")
        .contains("https://crm.shop.test/v2")
        .contains("status 503")
        .contains("evt-42")
        .contains("Dead letters: 1");
    write("system.html", system);
    write("webhooks.html", get("/webhooks", cookie).body());
    write("webhook.html", get(path, cookie).body());
    var letter = Pattern.compile("/system/webhook-dead-letters/(\\d+)/replay").matcher(system);
    assertThat(letter.find()).isTrue();

    var replayed = post(letter.group(), "_csrf=" + token, cookie);
    assertThat(replayed.statusCode()).isEqualTo(303);
    assertThat(replayed.headers().firstValue("Location"))
        .hasValue("/system?done=replayed#webhooks");
    assertThat(deadLetters.count()).isZero();
    assertThat(queue.depth(WebhookDelivery.TOPIC.name())).isEqualTo(1);
    assertThat(get("/system?done=replayed", cookie).body()).contains("Replayed");
    assertThat(post(letter.group(), "_csrf=" + token, cookie).headers().firstValue("Location"))
        .hasValue("/system?done=gone#webhooks");

    var rotated = post(path + "/rotate-secret", "_csrf=" + token, cookie);
    assertThat(rotated.statusCode()).isEqualTo(200);
    var second = Pattern.compile("whsec_[A-Za-z0-9+/]{43}(=|&#61;)").matcher(rotated.body());
    assertThat(second.find()).isTrue();
    assertThat(second.group()).isNotEqualTo(secret.group());
    assertThat(rotated.body()).contains("previous secret stays valid until");

    var deleted = post(path + "/delete", "_csrf=" + token, cookie);
    assertThat(deleted.statusCode()).isEqualTo(303);
    assertThat(get(path, cookie).statusCode()).isEqualTo(404);
    assertThat(get("/webhooks/../../etc", cookie).statusCode()).isEqualTo(404);
  }

  private static void write(String name, String html) throws Exception {
    Path directory = Path.of("target", "webhook-pages");
    Files.createDirectories(directory);
    Path css = Path.of("src/main/resources/web/dashboard.css").toAbsolutePath();
    Files.writeString(
        directory.resolve(name),
        html.replace("/static/dashboard.css", css.toUri().toString()));
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String signIn() throws Exception {
    var answer = post("/signin", "key=" + KEY + "&next=%2Fsystem", "");
    assertThat(answer.statusCode()).isEqualTo(303);
    String set = answer.headers().firstValue("Set-Cookie").orElseThrow();
    return set.substring(0, set.indexOf(';'));
  }

  private static String token(String cookie, String path) throws Exception {
    var found = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"")
        .matcher(get(path, cookie).body());
    assertThat(found.find()).as("a form token on the page").isTrue();
    return found.group(1);
  }

  private static HttpResponse<String> get(String path, String cookie) throws Exception {
    return client.send(
        HttpRequest.newBuilder(node.resolve(path))
            .header("Cookie", cookie)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(String path, String form, String cookie)
      throws Exception {
    var request = HttpRequest.newBuilder(node.resolve(path))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Origin", node.toString());
    if (!cookie.isEmpty()) request.header("Cookie", cookie);
    return client.send(
        request.POST(HttpRequest.BodyPublishers.ofString(form)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
