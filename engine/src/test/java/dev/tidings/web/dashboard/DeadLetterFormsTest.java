package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.tidings.audience.SubscriberService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.postgres.PostgresQueueOptions;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The dead-letter forms take what a signed-in browser posts, and that is still outsider text: a NUL in the
 * letter's id is a 400 naming the field (never a 503 from the database), and a line break in it cannot
 * start a line of its own in the log.
 */
@StartsServers
class DeadLetterFormsTest {
  private static final String KEY = "dead-letter-forms-key-0123456789";
  private static final String QUEUE = "dashboard.dead-letter-forms";
  private static final String PAGE = "/system/dead-letters/" + QUEUE;
  private static Database database;
  private static PostgresWorkQueue queue;
  private static HttpServer server;
  private static URI node;
  private static final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
  private static final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private static final Logger routesLog = (Logger) LoggerFactory.getLogger(DashboardRoutes.class);

  @BeforeAll
  static void start() {
    database = TestDatabases.embedded();
    queue =
        new PostgresWorkQueue(database, PostgresQueueOptions.defaults(), new SimpleMeterRegistry());
    queue.declare(QueueSpec.of(QUEUE));
    var jdbi = database.jdbi();
    var clock = InstantSource.system();
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
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
        List.of(QUEUE),
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
            sources, new SessionSignOuts(jdbi, clock), Optional.empty(), registry)));
    node = URI.create("http://127.0.0.1:" + server.port());
    logged.start();
    routesLog.addAppender(logged);
    // tests log warnings only (logback.xml); this line is at INFO
    routesLog.setLevel(Level.INFO);
  }

  @AfterAll
  static void stop() {
    routesLog.detachAppender(logged);
    routesLog.setLevel(null);
    server.close();
    queue.close();
    database.close();
  }

  @Test
  void a_nul_in_the_letters_id_is_a_400_naming_the_field_not_a_503() throws Exception {
    String cookie = signIn();
    String token = token(cookie);
    for (String action : List.of("/drop", "/requeue")) {
      var answer = post(PAGE + action, "_csrf=" + token + "&message=abc%00def", cookie);
      assertThat(answer.statusCode()).as(action).isEqualTo(400);
      assertThat(answer.body()).as(action).contains("<code>message</code>");
    }
  }

  @Test
  void a_line_break_in_the_letters_id_never_starts_a_log_line_of_its_own() throws Exception {
    String cookie = signIn();
    String token = token(cookie);
    logged.list.clear();

    String forged = "m-1\r\n12:00:00.000 INFO  d.t.w.d.SignIn - operator signed in\u001b[2J";
    var refused = post(PAGE + "/drop", "_csrf=" + token + "&message=" + encode(forged), cookie);
    assertThat(refused.statusCode()).as("a control character names no letter").isEqualTo(400);

    // a separator Unicode reads as a line break is no control character: the id is looked up,
    // and the line that tells of it keeps it escaped
    String separated = "m-2\u2028INFO forged \\ line";
    var answer = post(PAGE + "/drop", "_csrf=" + token + "&message=" + encode(separated), cookie);
    assertThat(answer.statusCode()).isEqualTo(303);
    assertThat(answer.headers().firstValue("Location")).hasValue(PAGE + "?done=gone");

    assertThat(logged.list)
        .as("the line about the forms")
        .singleElement()
        .satisfies(event -> assertThat(event.getFormattedMessage())
            .doesNotContain("\r", "\n", "\u001b", "\u2028")
            .contains("m-2\\u2028INFO forged \\\\ line"));
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

  private static String token(String cookie) throws Exception {
    var page = client.send(
        HttpRequest.newBuilder(node.resolve("/system"))
            .header("Cookie", cookie)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
    var found = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page.body());
    assertThat(found.find()).as("a form token on the page").isTrue();
    return found.group(1);
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
