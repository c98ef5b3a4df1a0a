package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.audience.SubscriberService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.postgres.PostgresQueueOptions;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.AuthThrottle;
import dev.tidings.web.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's session over HTTP, on two nodes sharing one database and the API key: sign-out
 * ends it on both, wrong keys are throttled, a broken form is a 400.
 */
@StartsServers
class DashboardSessionTest {
  private static final String KEY = "dashboard-session-key-0123456789";
  private static Database database;
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
  private final InstantSource clock = () -> now.get();
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AuthThrottle throttle = new AuthThrottle(
      InProcessCoordination.rateLimiter(InstantSource.system()), registry, InstantSource.system());
  private final List<HttpServer> nodes = new ArrayList<>();
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  private static final String QUEUE = "dashboard.dead-letters";
  private static PostgresWorkQueue queue;

  @BeforeAll
  static void open() {
    database = TestDatabases.embedded();
    queue =
        new PostgresWorkQueue(database, PostgresQueueOptions.defaults(), new SimpleMeterRegistry());
    queue.declare(QueueSpec.of(QUEUE));
  }

  @AfterAll
  static void close() {
    queue.close();
    database.close();
  }

  @AfterEach
  void stop() {
    nodes.forEach(HttpServer::close);
  }

  /** A node serving the dashboard only, with one work queue; the system page reads nothing the test lacks. */
  private URI node() {
    var jdbi = database.jdbi();
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
    var server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        registry,
        List.of(),
        List.of(new DashboardRoutes(
            sources, new SessionSignOuts(jdbi, clock), Optional.of(throttle), registry)));
    nodes.add(server);
    return URI.create("http://127.0.0.1:" + server.port());
  }

  private HttpResponse<String> get(URI node, String path, Optional<String> cookie)
      throws Exception {
    var request = HttpRequest.newBuilder(node.resolve(path));
    cookie.ifPresent(value -> request.header("Cookie", value));
    return client.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(URI node, String path, String form, Optional<String> cookie)
      throws Exception {
    var request = HttpRequest.newBuilder(node.resolve(path))
        .header("Content-Type", "application/x-www-form-urlencoded");
    cookie.ifPresent(value -> request.header("Cookie", value));
    return client.send(
        request.POST(HttpRequest.BodyPublishers.ofString(form)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A GET whose target {@link URI} would refuse to send: the status code the node answers. */
  private static int rawStatus(URI node, String target, String cookie) throws Exception {
    try (var socket = new Socket(node.getHost(), node.getPort())) {
      socket.setSoTimeout(5000);
      String request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + node.getPort()
          + (cookie.isEmpty() ? "" : "\r\nCookie: " + cookie) + "\r\nConnection: close\r\n\r\n";
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      var reader = new BufferedReader(
          new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      String status = reader.readLine();
      return Integer.parseInt(status.split(" ")[1]);
    }
  }

  private String signIn(URI node) throws Exception {
    var answer = post(node, "/signin", "key=" + KEY + "&next=%2Fsystem", Optional.empty());
    assertThat(answer.statusCode()).isEqualTo(303);
    String set = answer.headers().firstValue("Set-Cookie").orElseThrow();
    return set.substring(0, set.indexOf(';'));
  }

  /** The token the signed-in page's forms carry. */
  private String token(URI node, String cookie) throws Exception {
    String page = get(node, "/system", Optional.of(cookie)).body();
    var found = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page);
    assertThat(found.find()).as("a form token on the page").isTrue();
    return found.group(1);
  }

  private static boolean sentToSignIn(HttpResponse<String> answer) {
    return answer.statusCode() == 303
        && answer.headers().firstValue("Location").orElse("").startsWith("/signin");
  }

  @Test
  void after_sign_out_the_old_cookie_is_sent_to_sign_in_on_this_node_and_on_another()
      throws Exception {
    URI one = node();
    URI two = node();
    String cookie = signIn(one);
    assertThat(get(one, "/system", Optional.of(cookie)).statusCode()).isEqualTo(200);
    assertThat(get(two, "/system", Optional.of(cookie)).statusCode())
        .as("every node sharing the key accepts the session")
        .isEqualTo(200);

    assertThat(post(one, "/signout", "", Optional.of(cookie)).statusCode())
        .as("a sign-out form without the session's token")
        .isEqualTo(403);
    var out = post(one, "/signout", "_csrf=" + token(one, cookie), Optional.of(cookie));
    assertThat(out.statusCode()).isEqualTo(303);

    assertThat(sentToSignIn(get(one, "/system", Optional.of(cookie))))
        .as("at once on the node that signed out")
        .isTrue();
    now.set(now.get().plus(SignIn.RECHECK).plusSeconds(1));
    assertThat(sentToSignIn(get(two, "/system", Optional.of(cookie))))
        .as("on another node once its short memory of the session has lapsed")
        .isTrue();
    assertThat(get(two, "/live/campaigns", Optional.of(cookie)).statusCode()).isEqualTo(401);

    String again = signIn(two);
    assertThat(get(one, "/system", Optional.of(again)).statusCode())
        .as("a new sign-in is a new session")
        .isEqualTo(200);
  }

  @Test
  void an_operator_requeues_or_drops_a_dead_letter_with_a_form_of_this_site_only()
      throws Exception {
    queue.publishAll(
        QUEUE,
        List.of(
            Message.of("fixable".getBytes(StandardCharsets.UTF_8), 1),
            Message.of("hopeless".getBytes(StandardCharsets.UTF_8), 1)));
    var handled = new LinkedBlockingQueue<String>();
    var fixed = new AtomicBoolean();
    try (var _ = queue.subscribe(QUEUE, 1, 1, delivery -> {
      String body = new String(delivery.body(), StandardCharsets.UTF_8);
      if (!fixed.get()) return Disposition.reject("cannot handle " + body + " yet");
      handled.add(body);
      return Disposition.ACK;
    })) {
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (queue.deadLetters(QUEUE, 10).size() < 2) {
        assertThat(System.nanoTime()).as("two dead letters").isLessThan(deadline);
        Thread.sleep(50);
      }
      var letters = queue.deadLetters(QUEUE, 10);
      String fixable = idOf(letters, "fixable");
      String hopeless = idOf(letters, "hopeless");
      URI node = node();
      String cookie = signIn(node);
      String page = "/system/dead-letters/" + QUEUE;

      var listed = get(node, page, Optional.of(cookie));
      assertThat(listed.statusCode()).isEqualTo(200);
      assertThat(listed.body()).contains(fixable, hopeless, "cannot handle fixable yet");
      assertThat(get(node, "/system", Optional.of(cookie)).body())
          .contains("href=\"/system/dead-letters/dashboard.dead-letters\">2</a>");

      var forged = client.send(
          HttpRequest.newBuilder(node.resolve(page + "/drop"))
              .header("Content-Type", "application/x-www-form-urlencoded")
              .header("Cookie", cookie)
              .header("Origin", "https://evil.example")
              .POST(HttpRequest.BodyPublishers.ofString("message=" + hopeless))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(forged.statusCode()).as("a form from another site").isEqualTo(403);
      String token = token(node, cookie);
      String otherSession = token(node, signIn(node));
      assertThat(otherSession).as("each session its own token").isNotEqualTo(token);
      for (String form : List.of(
          "message=" + hopeless,
          "_csrf=&message=" + hopeless,
          "_csrf=" + otherSession + "&message=" + hopeless))
        assertThat(post(node, page + "/drop", form, Optional.of(cookie)).statusCode())
            .as("same site, signed in, but " + form.substring(0, Math.min(form.length(), 12)))
            .isEqualTo(403);
      assertThat(registry.scrape())
          .contains("tidings_dashboard_forms_refused_total{reason=\"origin\"} 1.0")
          .contains("tidings_dashboard_forms_refused_total{reason=\"token\"} 3.0");
      assertThat(post(node, page + "/drop", "message=" + hopeless, Optional.empty()))
          .as("not signed in")
          .satisfies(answer -> assertThat(sentToSignIn(answer)).isTrue());
      assertThat(post(
                  node,
                  "/system/dead-letters/no.such.queue/drop",
                  "_csrf=" + token + "&message=" + hopeless,
                  Optional.of(cookie))
              .statusCode())
          .isEqualTo(404);
      assertThat(post(node, page + "/drop", "_csrf=" + token + "&message=", Optional.of(cookie))
              .statusCode())
          .isEqualTo(400);
      assertThat(queue.deadLetters(QUEUE, 10)).hasSize(2);

      fixed.set(true);
      var requeued = post(
          node, page + "/requeue", "_csrf=" + token + "&message=" + fixable, Optional.of(cookie));
      assertThat(requeued.statusCode()).isEqualTo(303);
      assertThat(requeued.headers().firstValue("Location")).contains(page + "?done=requeued");
      assertThat(handled.poll(20, TimeUnit.SECONDS)).isEqualTo("fixable");
      var dropped = post(
          node, page + "/drop", "_csrf=" + token + "&message=" + hopeless, Optional.of(cookie));
      assertThat(dropped.headers().firstValue("Location")).contains(page + "?done=dropped");
      assertThat(queue.deadLetters(QUEUE, 10)).isEmpty();
      var again = post(
          node, page + "/drop", "_csrf=" + token + "&message=" + hopeless, Optional.of(cookie));
      assertThat(again.headers().firstValue("Location")).contains(page + "?done=gone");
      assertThat(get(node, page + "?done=gone", Optional.of(cookie)).body())
          .contains("no longer there");
      assertThat(handled).as("the dropped letter never came back").isEmpty();
    }
  }

  private static String idOf(List<DeadLetter> letters, String body) {
    return letters.stream()
        .filter(letter -> new String(letter.body(), StandardCharsets.UTF_8).equals(body))
        .findFirst()
        .orElseThrow()
        .messageId();
  }

  @Test
  void the_eleventh_wrong_key_in_a_minute_gets_a_429_page_and_is_counted() throws Exception {
    URI node = node();
    for (int i = 0; i < AuthThrottle.FAILURES; i++) {
      assertThat(post(node, "/signin", "key=wrong-" + i, Optional.empty()).statusCode())
          .isEqualTo(401);
    }
    var eleventh = post(node, "/signin", "key=wrong-eleventh", Optional.empty());
    assertThat(eleventh.statusCode()).isEqualTo(429);
    assertThat(eleventh.headers().firstValue("Retry-After")).isPresent();
    assertThat(eleventh.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    assertThat(eleventh.body()).contains("Too many wrong keys").contains("<form");
    var right = post(node, "/signin", "key=" + KEY, Optional.empty());
    assertThat(right.statusCode())
        .as("while wrong keys wait, the right key still signs in")
        .isEqualTo(303);
    assertThat(right.headers().firstValue("Set-Cookie")).isPresent();
    assertThat(registry.scrape())
        .contains("tidings_auth_failures_total{kind=\"sign_in\"} 11.0")
        .doesNotContain("wrong-");
  }

  @Test
  void a_broken_percent_escape_in_a_form_or_a_query_is_a_400_page_not_a_500() throws Exception {
    URI node = node();
    for (String form : List.of("t=%", "key=%zz", "%=x", "next=%E0%A4")) {
      var answer = post(node, "/signin", form, Optional.empty());
      assertThat(answer.statusCode()).as(form).isEqualTo(400);
      assertThat(answer.headers().firstValue("Content-Type").orElse(""))
          .as(form)
          .startsWith("text/html");
      assertThat(answer.body()).as(form).contains("could not be read");
    }
    String cookie = signIn(node);
    assertThat(post(node, "/signout", "t=%", Optional.of(cookie)).statusCode()).isLessThan(500);
    assertThat(rawStatus(node, "/signin?next=%", "")).isLessThan(500);
    String signedIn = signIn(node);
    assertThat(rawStatus(node, "/explorer?subscriber=%", signedIn)).isLessThan(500);
    assertThat(rawStatus(node, "/campaigns/%zz", signedIn)).isLessThan(500);
  }
}
