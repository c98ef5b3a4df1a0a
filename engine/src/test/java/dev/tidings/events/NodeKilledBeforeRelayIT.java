package dev.tidings.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidings.Json;
import dev.tidings.notify.ProductNewsListener;
import dev.tidings.storage.AdvisoryLock;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.SharedServersInstallation;
import dev.tidings.testing.StandardWebhooksReceiver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node that relays is killed (SIGKILL) between the commit of writes and the relay of their
 * events, and again while their events are on their way to the listeners and a webhook endpoint: on the
 * embedded default (one node, started again on its data) and on the real PostgreSQL, Redis and
 * RabbitMQ (a server node and a worker, the worker killed and another started). Every committed event
 * reaches every listener that hears its type (here notify's product news, which keeps an inbox) and
 * the endpoint (through the webhooks' fan-out, which hears every type), at least once; a write that was
 * refused tells nothing.
 *
 * <p>"Between commit and relay" is made certain, not hoped for: the test holds the relay's advisory lock
 * while the writes commit, so no node can relay them, and kills the node while it still holds it.
 */
@Timeout(420)
class NodeKilledBeforeRelayIT {
  private static final String KEY = "tk_node_killed_before_relay_0123456789";
  private static final int SUBSCRIBERS = 200;
  private static final int PRODUCTS = 10;
  private static final int ACTIVITY = 300;
  private static final int MORE_ACTIVITY = 1_500;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<NodeProcess> nodes = new ArrayList<>();
  private StandardWebhooksReceiver receiver;
  private SharedServersInstallation installation;

  @TempDir
  Path dataDirectory;

  @AfterEach
  void stop() throws Exception {
    nodes.reversed().forEach(NodeProcess::close);
    if (receiver != null) receiver.close();
    if (installation != null) installation.drop();
  }

  @Test
  void on_the_embedded_default_the_node_started_again_relays_what_it_committed_before_the_kill()
      throws Exception {
    receiver = new StandardWebhooksReceiver(List.of());
    var environment = new HashMap<String, String>();
    environment.put("TIDINGS_API_KEY", KEY);
    environment.put("TIDINGS_DATA_DIR", dataDirectory.toString());
    environment.put(
        "TIDINGS_FETCH_ALLOW", "127.0.0.1:" + URI.create(receiver.url()).getPort());
    // `serve` on the embedded database: this one node relays and works every listener itself
    Supplier<NodeProcess> node = () -> start("serve", environment);

    killedAndRestarted(node, true, () -> connect(embeddedUrl()));
  }

  @Test
  void on_the_real_servers_another_worker_relays_what_the_killed_one_left() throws Exception {
    receiver = new StandardWebhooksReceiver(List.of());
    installation = SharedServersInstallation.create("killrelay", KEY);
    var environment = installation.environment();
    environment.put(
        "TIDINGS_FETCH_ALLOW", "127.0.0.1:" + URI.create(receiver.url()).getPort());
    start("serve", environment);
    Supplier<NodeProcess> worker = () -> start("worker", environment);

    killedAndRestarted(worker, false, () -> connect(installation.databaseUrl()));
  }

  /**
   * Writes while no node may relay, kills the relaying node, starts another, and checks that
   * everything arrives; then kills that one while events are on their way, and checks again.
   * {@code alone}: the relaying node is also the one that serves the API (the embedded default).
   */
  private void killedAndRestarted(
      Supplier<NodeProcess> relaying, boolean alone, Supplier<Connection> db) throws Exception {
    NodeProcess victim = relaying.get();
    NodeProcess api = nodes.getFirst();
    String secret = registerEndpoint(api);
    receiver.secrets(List.of(secret));

    try (Connection holder = db.get()) {
      holdRelayLock(holder);
      write(api);
      assertThat(count(holder, "SELECT count(*) FROM event_log"))
          .as("nothing relayed while the test holds the relay's lock")
          .isZero();
      assertThat(count(holder, "SELECT count(*) FROM event_outbox"))
          .as("the committed writes' events wait in the outbox")
          .isPositive();
      victim.signal("KILL");
      assertThat(victim.alive()).isFalse();
    }
    NodeProcess second = relaying.get();
    if (alone) api = second;

    Map<String, Long> expected = Map.of(
        CloudEventType.SUBSCRIBED.typeName(), (long) SUBSCRIBERS,
        CloudEventType.PRODUCT_ADDED.typeName(), (long) PRODUCTS,
        CloudEventType.ACTIVITY_ACCEPTED.typeName(), (long) ACTIVITY);
    awaitEveryEventArrived(db, expected);
    try (Connection connection = db.get()) {
      assertThat(count(connection, "SELECT count(*) FROM event_log WHERE subject LIKE 'refused-%'"))
          .as("no event for the refused import")
          .isZero();
    }

    // killed again while the next events are being relayed and delivered
    postActivity(api, "more", MORE_ACTIVITY);
    int before = receiver.verified.size();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> receiver.verified.size() > before);
    second.signal("KILL");
    int deliveredAtKill = receiver.verified.size() - before;
    assertThat(relaying.get().alive()).as("a node relays after the second kill").isTrue();
    var more = new HashMap<>(expected);
    more.merge(CloudEventType.ACTIVITY_ACCEPTED.typeName(), (long) MORE_ACTIVITY, Long::sum);
    assertThat(deliveredAtKill)
        .as("the node was killed with deliveries still to make")
        .isLessThan(MORE_ACTIVITY);
    awaitEveryEventArrived(db, more);
    assertThat(receiver.unverified()).isZero();
  }

  private void awaitEveryEventArrived(Supplier<Connection> db, Map<String, Long> expected) {
    await()
        .atMost(Duration.ofSeconds(150))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(() -> {
          try (Connection connection = db.get()) {
            assertThat(countsByType(connection)).isEqualTo(expected);
            assertThat(count(connection, "SELECT count(*) FROM event_outbox")).isZero();
            Set<String> logged = ids(connection, "SELECT id FROM event_log");
            assertThat(ids(
                    connection,
                    "SELECT event_id FROM event_inbox WHERE listener = '" + ProductNewsListener.NAME
                        + "'"))
                .as("every product added heard by notify's product news")
                .containsAll(ids(
                    connection,
                    "SELECT id FROM event_log WHERE type = '"
                        + CloudEventType.PRODUCT_ADDED.typeName() + "'"));
            assertThat(deliveredEventIds())
                .as("every event POSTed to the endpoint and verified")
                .containsAll(logged);
          }
        });
  }

  // ---- the nodes and their API

  private NodeProcess start(String command, Map<String, String> environment) {
    try {
      var node = NodeProcess.start(command, List.of(), environment);
      nodes.add(node);
      node.awaitHealthy(http, Duration.ofSeconds(120));
      return node;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start a " + command + " node", e);
    }
  }

  private HttpResponse<String> call(NodeProcess node, String path, String type, String body)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(node.uri(path))
            .header("Authorization", "Bearer " + KEY)
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String registerEndpoint(NodeProcess node) throws Exception {
    var answer =
        call(node, "/api/v1/webhooks", "application/json", "{\"url\": \"" + receiver.url() + "\"}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
    return Json.MAPPER.readTree(answer.body()).path("secret").asString();
  }

  /** Subscribers, products and activity, each committed; and one import refused whole. */
  private void write(NodeProcess node) throws Exception {
    String subscribers = IntStream.range(0, SUBSCRIBERS)
        .mapToObj(i ->
            "{\"id\": \"k%04d\", \"email\": \"k%04d@example.test\", \"consent\": \"subscribed\"}"
                .formatted(i, i))
        .collect(Collectors.joining("\n", "", "\n"));
    var imported = call(node, "/api/v1/subscribers/import", "application/x-ndjson", subscribers);
    assertThat(imported.statusCode()).as(imported.body()).isBetween(200, 299);

    String refused = "{\"id\": \"refused-1\", \"email\": \"refused-1@example.test\","
        + " \"consent\": \"subscribed\"}\n{\"id\": \"refused-2\", \"email\": \"not an address\","
        + " \"consent\": \"subscribed\"}\n";
    var refusal = call(
        node, "/api/v1/subscribers/import?mode=all-or-nothing", "application/x-ndjson", refused);
    assertThat(refusal.statusCode()).as(refusal.body()).isBetween(400, 499);

    for (int i = 0; i < PRODUCTS; i++) {
      var product = http.send(
          HttpRequest.newBuilder(node.uri("/api/v1/products/kp-" + i))
              .header("Authorization", "Bearer " + KEY)
              .header("Content-Type", "application/json")
              .PUT(HttpRequest.BodyPublishers.ofString("""
                  {"title": "Kept %d", "brand": "acme", "price": "19.00", "currency": "EUR",
                   "imageUrl": "https://img.shop.test/%d.jpg", "landingUrl": "https://shop.test/%d"}""".formatted(i, i, i)))
              .timeout(Duration.ofSeconds(30))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(product.statusCode()).as(product.body()).isIn(200, 201);
    }
    postActivity(node, "first", ACTIVITY);
  }

  private void postActivity(NodeProcess node, String prefix, int count) throws Exception {
    for (int from = 0; from < count; from += 500) {
      String batch = IntStream.range(from, Math.min(count, from + 500))
          .mapToObj(i -> ("{\"userId\": \"k%04d\", \"type\": \"view\", \"itemId\": \"kp-%d\","
                  + " \"timestamp\": \"2026-11-20T11:00:00Z\", \"eventId\": \"%s-%d\"}")
              .formatted(i % SUBSCRIBERS, i % PRODUCTS, prefix, i))
          .collect(Collectors.joining(",", "[", "]"));
      var answer = call(node, "/api/v1/events", "application/json", batch);
      assertThat(answer.statusCode()).as(answer.body()).isBetween(200, 299);
    }
  }

  private Set<String> deliveredEventIds() {
    var ids = new HashSet<String>();
    for (String body : receiver.verified.values())
      ids.add(Json.MAPPER.readTree(body).path("id").asString());
    return ids;
  }

  // ---- the installation's database, for what the API does not show

  private String embeddedUrl() {
    try {
      // postmaster.pid's fourth line is the port the embedded server listens on
      List<String> pid = Files.readAllLines(dataDirectory.resolve("pg").resolve("postmaster.pid"));
      return "jdbc:postgresql://127.0.0.1:" + pid.get(3).strip() + "/postgres?user=postgres";
    } catch (Exception e) {
      throw new IllegalStateException("the embedded PostgreSQL's port is unknown", e);
    }
  }

  private static Connection connect(String url) {
    try {
      return DriverManager.getConnection(url);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot connect to " + url.replaceAll("password=[^&]*", ""), e);
    }
  }

  /** A session lock on the relay's key: every node's {@code pg_try_advisory_xact_lock} fails. */
  private static void holdRelayLock(Connection connection) throws SQLException {
    try (var lock = connection.prepareStatement("SELECT pg_advisory_lock(?)")) {
      lock.setLong(1, AdvisoryLock.EVENT_RELAY.key());
      lock.execute();
    }
  }

  private static long count(Connection connection, String sql) throws SQLException {
    try (var statement = connection.createStatement();
        var rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static Set<String> ids(Connection connection, String sql) throws SQLException {
    var found = new HashSet<String>();
    try (var statement = connection.createStatement();
        var rows = statement.executeQuery(sql)) {
      while (rows.next()) found.add(rows.getString(1));
    }
    return found;
  }

  private static Map<String, Long> countsByType(Connection connection) throws SQLException {
    var counts = new HashMap<String, Long>();
    try (var statement = connection.createStatement();
        var rows = statement.executeQuery("SELECT type, count(*) FROM event_log GROUP BY type")) {
      while (rows.next()) counts.put(rows.getString(1), rows.getLong(2));
    }
    return counts;
  }
}
