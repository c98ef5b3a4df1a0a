package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.SharedServersInstallation;
import jakarta.mail.Message;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import tools.jackson.databind.JsonNode;

/**
 * A server node and worker nodes of one installation on the shared PostgreSQL, Redis and RabbitMQ, as
 * the worker scenarios drive them: over the HTTP API as a client would, reading the workers' outboxes
 * (what each handed to its transport) and the installation's database for what the API does not show.
 * Every node started here is closed by {@link #close()}, and the installation's database dropped.
 */
final class CampaignNodes implements AutoCloseable {
  static final String KEY = "tk_worker_faults_key_0123456789abcdef";
  /** Product titles the digest scenarios give, so an email's text names the pieces it told. */
  private static final Pattern TOLD = Pattern.compile("Piece-([A-Za-z0-9]+)-told");

  private final SharedServersInstallation installation;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<NodeProcess> nodes = new ArrayList<>();
  private final List<NodeProcess> workers = new ArrayList<>();
  private NodeProcess server;

  private CampaignNodes(SharedServersInstallation installation) {
    this.installation = installation;
  }

  /** An installation with {@code settings} added to every node's environment; no node started yet. */
  static CampaignNodes create(String name, Map<String, String> settings) throws SQLException {
    var installation = SharedServersInstallation.create(name, KEY);
    installation.environment().putAll(settings);
    return new CampaignNodes(installation);
  }

  void startServer() throws Exception {
    server = NodeProcess.start(installation.environment());
    nodes.add(server);
    server.awaitHealthy(http, Duration.ofSeconds(120));
  }

  /** Starts a worker node (not waiting for it), with extra JVM options. */
  NodeProcess startWorker(List<String> jvmOptions) throws IOException {
    var worker = NodeProcess.start("worker", jvmOptions, installation.environment());
    nodes.add(worker);
    workers.add(worker);
    return worker;
  }

  NodeProcess awaitHealthy(NodeProcess node) throws InterruptedException {
    node.awaitHealthy(http, Duration.ofSeconds(120));
    return node;
  }

  List<NodeProcess> workers() {
    return List.copyOf(workers);
  }

  NodeProcess server() {
    return server;
  }

  // ---- the API

  HttpResponse<String> call(NodeProcess node, String method, String path, String type, String body)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(node.uri(path))
            .header("Authorization", "Bearer " + KEY)
            .header("Content-Type", type)
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(20))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> call(String method, String path, String body) throws Exception {
    return call(server, method, path, "application/json", body);
  }

  /** Imports {@code count} subscribed subscribers {@code r00000..}; returns their addresses. */
  List<String> importSubscribers(int count) throws Exception {
    List<String> ids = IntStream.range(0, count).mapToObj("r%05d"::formatted).toList();
    String lines = ids.stream()
        .map(id -> "{\"id\": \"%s\", \"email\": \"%s@example.test\", \"consent\": \"subscribed\"}"
            .formatted(id, id))
        .collect(Collectors.joining("\n", "", "\n"));
    var answer = call(server, "POST", "/api/v1/subscribers/import", "application/x-ndjson", lines);
    assertThat(answer.statusCode()).as(answer.body()).isBetween(200, 299);
    return ids.stream().map(id -> id + "@example.test").toList();
  }

  void follow(String subscriberId, String brand) throws Exception {
    var answer = call("PUT", "/api/v1/subscribers/" + subscriberId + "/follows/brand/" + brand, "");
    assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201, 204);
  }

  /** Adds a product of {@code brand} titled so that the digests' text names it. */
  void product(String id, String brand) throws Exception {
    var answer = call("PUT", "/api/v1/products/" + id, """
        {"title": "Piece-%s-told", "brand": "%s", "price": "19.00", "currency": "EUR",
         "imageUrl": "https://img.shop.test/%s.jpg", "landingUrl": "https://shop.test/%s"}""".formatted(id, brand, id, id));
    assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
  }

  /** Creates a campaign to everyone and starts sending it; its id. */
  long sendCampaign(String name, double ratePerSecond) throws Exception {
    return start("""
        {"name": "%s", "from": {"email": "news@shop.test"},
         "subject": "Hello", "html": "<p>Hello</p><a href=\\"{{unsubscribeUrl}}\\">Unsubscribe</a>",
         "text": "Hello", "ratePerSecond": %s, "audience": {"type": "all"}}""".formatted(name, ratePerSecond));
  }

  /** Creates a digest campaign (what followed brands brought in the last week) and starts it. */
  long sendDigest(String name) throws Exception {
    return start("""
        {"name": "%s", "from": {"email": "news@shop.test", "name": "Shop"},
         "subject": "{{notificationCount}} new from what you follow",
         "html": "<html><body><p>Hello</p></body></html>", "text": "Hello",
         "ratePerSecond": 200, "audience": {"type": "all"},
         "digest": {"lookBackDays": 7, "minimum": 1}}""".formatted(name));
  }

  private long start(String definition) throws Exception {
    var created = call("POST", "/api/v1/campaigns", definition);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    long id = Json.MAPPER.readTree(created.body()).path("id").asLong();
    var started = call("POST", "/api/v1/campaigns/" + id + "/send", "");
    assertThat(started.statusCode()).as(started.body()).isIn(200, 202);
    return id;
  }

  JsonNode campaign(long id) throws Exception {
    return Json.MAPPER.readTree(call("GET", "/api/v1/campaigns/" + id, "").body());
  }

  void awaitSent(long campaign, long atLeast, Duration wait) throws Exception {
    long deadline = System.nanoTime() + wait.toNanos();
    while (campaign(campaign).path("progress").path("sent").asLong() < atLeast) {
      assertThat(System.nanoTime()).as("%d emails sent", atLeast).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /** Waits for the campaign's run to complete; its progress. */
  JsonNode awaitCompleted(long campaign, Duration wait) throws Exception {
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      JsonNode json = campaign(campaign);
      if (json.path("state").asString().startsWith("COMPLETED")) return json.path("progress");
      assertThat(System.nanoTime())
          .as("campaign %d completed; last: %s", campaign, json)
          .isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  // ---- what the workers handed to their transport

  /**
   * One email in a worker's outbox: its recipient, its {@code X-Tidings-Message-Id} (empty when it
   * has none) and the pieces its text names.
   */
  record Email(String to, String messageId, Set<String> told) {}

  /** Every email of every worker started, the killed ones' included. */
  List<Email> outboxes() throws Exception {
    List<Email> all = new ArrayList<>();
    for (NodeProcess worker : workers) all.addAll(outbox(worker));
    return all;
  }

  /**
   * The emails in the worker's outbox ({@code outbox/<day>/*.eml}), also while it sends: a directory
   * listing filtered by name stats no file, so the temporary file of an email being written, renamed
   * away meanwhile, is never read.
   */
  static List<Email> outbox(NodeProcess worker) throws Exception {
    Path outbox = worker.dataDir().resolve("outbox");
    List<Email> emails = new ArrayList<>();
    if (!Files.isDirectory(outbox)) return emails;
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> days = Files.newDirectoryStream(outbox, Files::isDirectory)) {
      for (Path day : days)
        try (DirectoryStream<Path> written = Files.newDirectoryStream(day, "*.eml")) {
          written.forEach(files::add);
        }
    }
    for (Path file : files) {
      var message = new MimeMessage(
          Session.getInstance(new Properties()),
          new ByteArrayInputStream(Files.readAllBytes(file)));
      String to =
          ((InternetAddress) message.getRecipients(Message.RecipientType.TO)[0]).getAddress();
      var told = new LinkedHashSet<String>();
      var matcher = TOLD.matcher(text(message));
      while (matcher.find()) told.add(matcher.group(1));
      String[] id = message.getHeader("X-Tidings-Message-Id");
      emails.add(new Email(to, id == null ? "" : id[0], told));
    }
    return emails;
  }

  private static String text(Part part) throws Exception {
    if (part.isMimeType("text/plain")) return part.getContent().toString();
    if (part.getContent() instanceof Multipart multipart) {
      var out = new StringBuilder();
      for (int i = 0; i < multipart.getCount(); i++) out.append(text(multipart.getBodyPart(i)));
      return out.toString();
    }
    return "";
  }

  // ---- the installation's database, for what the API does not show

  Connection database() throws SQLException {
    return DriverManager.getConnection(installation.databaseUrl());
  }

  /** The recipients of the campaign's run the ledger holds in one of {@code states}. */
  Set<String> recipientsIn(long campaign, String... states) throws SQLException {
    try (var connection = database();
        var query = connection.prepareStatement(
            "SELECT subscriber_id FROM send_recipient WHERE campaign_id = ? AND state = ANY(?)")) {
      query.setLong(1, campaign);
      query.setArray(2, connection.createArrayOf("text", states));
      var found = new LinkedHashSet<String>();
      try (var rows = query.executeQuery()) {
        while (rows.next()) found.add(rows.getString(1));
      }
      return found;
    }
  }

  long count(String sql) throws SQLException {
    try (var connection = database();
        var statement = connection.createStatement();
        var rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /**
   * Waits until none of {@code held} is still claimed ('sending' or 'handed_over') in the campaign's
   * ledger: another worker took the stopped worker's partitions over (planning again what it had not
   * handed over, settling the rest as unknown) or a live holder finished them; the time it took since
   * {@code since}.
   */
  Duration awaitSettled(long campaign, Set<String> held, long since, Duration wait)
      throws Exception {
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      var still = new LinkedHashSet<>(recipientsIn(campaign, "sending", "handed_over"));
      still.retainAll(held);
      if (still.isEmpty()) return Duration.ofNanos(System.nanoTime() - since);
      assertThat(System.nanoTime())
          .as("%d recipients held by the stopped worker are settled", still.size())
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /** The sum of a counter's series on the node's /metrics. */
  double metric(NodeProcess node, String name) throws Exception {
    var answer = call(node, "GET", "/metrics", "text/plain", "");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return answer
        .body()
        .lines()
        .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  /** The lines of a counter's series on the node's /metrics, for a scenario's note. */
  String series(NodeProcess node, String name) throws Exception {
    var answer = call(node, "GET", "/metrics", "text/plain", "");
    return answer
        .body()
        .lines()
        .filter(line -> line.startsWith(name + "{"))
        .map(line -> line.substring(line.indexOf('{')))
        .collect(Collectors.joining(", "));
  }

  @Override
  public void close() throws Exception {
    try {
      for (NodeProcess node : nodes) node.close();
    } finally {
      installation.drop();
    }
  }
}
