package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.delivery.DeliveryEventPosts;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.PrivateRedis;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.RecordingSmtpServer;
import dev.tidings.testing.SharedServersInstallation;
import dev.tidings.testing.TcpProxy;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 5: the network to PostgreSQL, Redis and RabbitMQ cut at once, and restored, while a campaign
 * sends, its readers open it (the open-time burst) and its receipts arrive over HTTP. A server node and a
 * worker node reach the machine's servers only through TCP proxies, which the test closes for {@link
 * #OUTAGE}; the oracle reads PostgreSQL directly.
 *
 * <ul>
 *   <li>send: every recipient has one email in the worker's outbox, or the campaign reports them
 *       unknown;
 *   <li>receipts: every delivery event answered 2xx is in the funnel exactly once;
 *   <li>opens: every email's slots show one list of distinct products, whatever each open met.
 * </ul>
 */
@Timeout(300)
class NetworkCutFaultIT {
  private static final String KEY = "tk_network_cut_fault_key_0123456789";
  private static final String SERVERS = "PostgreSQL, Redis, RabbitMQ through TCP proxies";
  private static final int RECIPIENTS = 600;
  private static final int SLOTS = 3;
  private static final int PRODUCTS = 12;
  private static final Duration OUTAGE = Duration.ofSeconds(5);
  private static final Duration SETTLE = Duration.ofSeconds(120);

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void a_cut_of_every_server_at_once_loses_and_repeats_nothing() throws Exception {
    RealServers.requirePostgres();
    var installation = SharedServersInstallation.create("netcut", KEY);
    var nodes = new ArrayList<NodeProcess>();
    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    try (var postgres = TcpProxy.to("127.0.0.1", port(installation.databaseUrl(), 5432));
        var redis = TcpProxy.to("127.0.0.1", portOf(RealServers.redisUrl(), 6379));
        var rabbit = TcpProxy.to("127.0.0.1", portOf(RealServers.amqpUrl(), 5672));
        var smtp = RecordingSmtpServer.start()) {
      Map<String, String> environment = installation.environment();
      environment.put("TIDINGS_DB_URL", throughProxy(installation.databaseUrl(), postgres.port()));
      environment.put("TIDINGS_REDIS_URL", "redis://127.0.0.1:" + redis.port());
      environment.put(
          "TIDINGS_AMQP_URL",
          RealServers.amqpUrl().toString().replaceFirst(":\\d+$", "") + ":" + rabbit.port());
      environment.put("TIDINGS_SMTP_URL", smtp.url());
      environment.put("TIDINGS_SEND_PARTITION_SIZE", "50");
      environment.put("TIDINGS_SHUTDOWN_GRACE", "PT5S");
      var server = NodeProcess.start(environment);
      nodes.add(server);
      var worker = NodeProcess.start("worker", List.of(), environment);
      nodes.add(worker);
      for (NodeProcess node : nodes) node.awaitHealthy(http, Duration.ofSeconds(120));
      say("nodes healthy");

      products(server);
      subscribers(server);
      long campaign = campaign(server);

      var outbox = new MailWatch(smtp);
      var stop = new AtomicBoolean();
      var toOpen = new LinkedBlockingQueue<SentEmail>();
      var toReceipt = new LinkedBlockingQueue<SentEmail>();
      // half the emails sent before the cut are first opened while the links are down
      var openDuringTheCut = new LinkedBlockingQueue<SentEmail>();
      var cutting = new AtomicBoolean();
      Future<?> watcher = threads.submit(() -> {
        int seen = 0;
        while (!stop.get()) {
          for (SentEmail email : outbox.newEmails()) {
            boolean later = !cutting.get() && seen++ % 2 == 1;
            (later ? openDuringTheCut : toOpen).add(email);
            toReceipt.add(email);
          }
          Thread.sleep(200);
        }
        return null;
      });
      var cutAt = new AtomicLong();
      var restoredAt = new AtomicLong();
      var opens = new Opens(server, restoredAt);
      var receipts = new Receipts(server, restoredAt);
      List<Future<?>> workers = new ArrayList<>();
      for (int i = 0; i < 8; i++)
        workers.add(threads.submit(() -> drain(toOpen, stop, opens::open)));
      for (int i = 0; i < 4; i++)
        workers.add(threads.submit(() -> drain(toReceipt, stop, receipts::deliver)));

      awaitProgress(server, campaign, RECIPIENTS / 4);
      cutting.set(true);
      postgres.cut();
      redis.cut();
      rabbit.cut();
      cutAt.set(System.nanoTime());
      say("links cut with " + outbox.count() + " emails sent");
      openDuringTheCut.drainTo(toOpen);
      Thread.sleep(OUTAGE);
      postgres.restore();
      redis.restore();
      rabbit.restore();
      restoredAt.set(System.nanoTime());
      long sentWhenRestored = outbox.count();
      say("links restored with " + sentWhenRestored + " emails sent");

      JsonNode progress = awaitCompleted(server, campaign);
      long sendRecovery = awaitOutboxBeyond(outbox, sentWhenRestored);
      say("campaign completed: " + progress);
      // the last emails still get their opens and receipts before the oracle reads
      long deadline = System.nanoTime() + SETTLE.toNanos();
      while ((!toOpen.isEmpty() || !toReceipt.isEmpty()) && System.nanoTime() < deadline)
        Thread.sleep(100);
      outbox.newEmails().forEach(email -> {
        toOpen.add(email);
        toReceipt.add(email);
      });
      while ((!toOpen.isEmpty() || !toReceipt.isEmpty()) && System.nanoTime() < deadline)
        Thread.sleep(100);
      stop.set(true);
      say("opens and receipts drained");
      for (Future<?> done : workers) done.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
      watcher.get(10, TimeUnit.SECONDS);

      List<String> recipients = outbox.all().stream().map(SentEmail::to).toList();
      long unknown = progress.path("unknown").asLong();
      long emailed = new HashSet<>(recipients).size();
      Duration downFor = Duration.ofNanos(restoredAt.get() - cutAt.get());
      FaultReport.recordAndCheck(new FaultReport.Outcome(
          "5a network cut: campaign send",
          SERVERS,
          RECIPIENTS,
          recipients.size(),
          Math.max(0, RECIPIENTS - emailed - unknown),
          recipients.size() - emailed,
          unknown,
          Duration.ofNanos(sendRecovery - restoredAt.get()),
          "%d recipients; the three links down %.1f s; %d emails sent after the restore"
              .formatted(
                  RECIPIENTS, downFor.toMillis() / 1000.0, recipients.size() - sentWhenRestored)));
      assertThat(progress.path("sent").asLong() + progress.path("unknown").asLong())
          .as("sent + unknown is every recipient")
          .isEqualTo(RECIPIENTS);

      // receipts are applied from the queue:
      // wait until the funnel holds every answered one, or the bound
      List<String> delivered = deliveredInFunnel(installation, campaign);
      long settleBy = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!delivered.containsAll(receipts.answered()) && System.nanoTime() < settleBy) {
        Thread.sleep(250);
        delivered = deliveredInFunnel(installation, campaign);
      }
      say("funnel settled with " + delivered.size() + " delivered");
      List<String> missing = new ArrayList<>(receipts.answered());
      missing.removeAll(delivered);
      if (!missing.isEmpty()) say("answered 2xx, not delivered in the funnel: " + missing);
      FaultReport.recordAndCheck(FaultReport.Outcome.of(
          "5b network cut: receipts",
          SERVERS,
          Tally.of(receipts.answered(), delivered),
          0,
          receipts.recovery(),
          "delivery events over HTTP; %d answers 503 or dropped while the links were down, retried"
              .formatted(receipts.refused())));

      FaultReport.recordAndCheck(FaultReport.Outcome.of(
          "5c network cut: open-time slots",
          SERVERS,
          opens.tally(),
          0,
          opens.recovery(),
          ("%d opens of %d emails; %d answered with a neutral stand-in (not cacheable) and %d"
                  + " failed while the links were down; %d lists with a repeated product")
              .formatted(
                  opens.requests(),
                  opens.emails(),
                  opens.standIns(),
                  opens.failed(),
                  opens.repeats())));
      assertThat(opens.repeats()).as("lists with a repeated product").isZero();
    } finally {
      threads.shutdownNow();
      for (NodeProcess node : nodes) node.close();
      installation.drop();
    }
  }

  /** Opens each email twice, every slot, and remembers what each slot showed (its card's ETag). */
  private final class Opens {
    private final NodeProcess node;
    private final AtomicLong restoredAt;
    private final Map<String, Set<String>> shown = new ConcurrentHashMap<>();
    private final Map<String, List<String>> kept = new ConcurrentHashMap<>();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger standIns = new AtomicInteger();
    private final AtomicLong firstAfterRestore = new AtomicLong();

    Opens(NodeProcess node, AtomicLong restoredAt) {
      this.node = node;
      this.restoredAt = restoredAt;
    }

    void open(SentEmail email) throws Exception {
      for (int round = 0; round < 2; round++) {
        for (String path : email.slotPaths()) {
          requests.incrementAndGet();
          HttpResponse<byte[]> answer;
          try {
            answer = http.send(
                HttpRequest.newBuilder(node.uri(path))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
          } catch (IOException e) {
            failed.incrementAndGet();
            continue;
          }
          if (answer.statusCode() != 200) {
            failed.incrementAndGet();
            continue;
          }
          if (answer.headers().firstValue("Cache-Control").orElse("").contains("no-store")) {
            standIns.incrementAndGet(); // a neutral card while the list cannot be had: not a list
            continue;
          }
          noteSuccess(firstAfterRestore, restoredAt);
          String etag = answer.headers().firstValue("ETag").orElse("");
          shown
              .computeIfAbsent(email.messageId() + path, k -> ConcurrentHashMap.newKeySet())
              .add(etag);
        }
      }
      if (email.slotPaths().isEmpty()) return;
      String token = email.slotPaths().getFirst().split("/")[2];
      JsonNode slots = api(node, "GET", "/api/v1/messages/" + token + "/slots", "");
      List<String> ids = new ArrayList<>();
      slots.path("productIds").forEach(id -> ids.add(id.asString()));
      if (!ids.isEmpty()) kept.put(email.messageId(), ids);
    }

    /** Acknowledged: every slot that answered 200; duplicated: every slot that showed a second card. */
    Tally tally() {
      List<String> acknowledged = new ArrayList<>(shown.keySet());
      List<String> stored = new ArrayList<>();
      shown.forEach((slot, etags) -> etags.forEach(etag -> stored.add(slot)));
      return Tally.of(acknowledged, stored);
    }

    long repeats() {
      return kept.values().stream()
          .filter(ids -> new HashSet<>(ids).size() != ids.size())
          .count();
    }

    int requests() {
      return requests.get();
    }

    int emails() {
      return kept.size();
    }

    int failed() {
      return failed.get();
    }

    int standIns() {
      return standIns.get();
    }

    Duration recovery() {
      return Duration.ofNanos(Math.max(0, firstAfterRestore.get() - restoredAt.get()));
    }
  }

  /** Posts a "delivered" event for each email until it is answered 2xx, as a provider retries. */
  private final class Receipts {
    private final NodeProcess node;
    private final AtomicLong restoredAt;
    private final Set<String> answered = ConcurrentHashMap.newKeySet();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicLong firstAfterRestore = new AtomicLong();

    Receipts(NodeProcess node, AtomicLong restoredAt) {
      this.node = node;
      this.restoredAt = restoredAt;
    }

    void deliver(SentEmail email) throws Exception {
      String body = """
          [{"messageId": "%s", "status": "delivered", "timestamp": "%s"}]""".formatted(email.messageId(), Instant.now());
      DeliveryEventPosts.untilAccepted(
          http, request(node, "POST", "/api/v1/delivery-events", body).build(), SETTLE, refused);
      answered.add(email.messageId());
      noteSuccess(firstAfterRestore, restoredAt);
    }

    List<String> answered() {
      return List.copyOf(answered);
    }

    int refused() {
      return refused.get();
    }

    Duration recovery() {
      return Duration.ofNanos(Math.max(0, firstAfterRestore.get() - restoredAt.get()));
    }
  }

  private static void noteSuccess(AtomicLong first, AtomicLong restoredAt) {
    long restored = restoredAt.get();
    if (restored == 0) return;
    first.compareAndSet(0, System.nanoTime());
  }

  private interface EmailWork {
    void run(SentEmail email) throws Exception;
  }

  private static Void drain(
      LinkedBlockingQueue<SentEmail> queue, AtomicBoolean stop, EmailWork work) throws Exception {
    while (!stop.get() || !queue.isEmpty()) {
      SentEmail email = queue.poll(100, TimeUnit.MILLISECONDS);
      if (email != null) work.run(email);
    }
    return null;
  }

  /**
   * The funnel's "delivered" step of the campaign, one row a message that reached it, read from
   * PostgreSQL itself (not through the proxy): a message applied twice would show twice here only if
   * the store let it, so the count beside the distinct ids is the oracle.
   */
  private static List<String> deliveredInFunnel(
      SharedServersInstallation installation, long campaign) throws Exception {
    List<String> ids = new ArrayList<>();
    try (var connection = DriverManager.getConnection(installation.databaseUrl());
        var query = connection.prepareStatement(
            "SELECT message_id FROM message_steps WHERE campaign_id = ? AND step = ?")) {
      query.setLong(1, campaign);
      query.setInt(2, FunnelStep.DELIVERED.code());
      try (var rows = query.executeQuery()) {
        while (rows.next()) ids.add(rows.getString(1));
      }
    }
    return ids;
  }

  private void products(NodeProcess node) throws Exception {
    int closedPort = PrivateRedis.freePort(); // images nobody serves: cards render without pictures
    for (int p = 0; p < PRODUCTS; p++) {
      String id = String.format(Locale.ROOT, "prod-%02d", p);
      api(node, "POST", "/api/v1/products", """
          {"id":"%s","title":"Product %1$s","brand":"Velin","category":"men/shirts","price":"49.90",
           "currency":"EUR","imageUrl":"http://127.0.0.1:%d/%1$s.png",
           "landingUrl":"https://shop.example/p/%1$s","available":true,"attributes":{}}""".formatted(id, closedPort));
    }
  }

  private void subscribers(NodeProcess node) throws Exception {
    String lines = IntStream.range(0, RECIPIENTS)
        .mapToObj(i -> "{\"id\": \"r%05d\", \"email\": \"%s\", \"consent\": \"subscribed\"}"
            .formatted(i, address(i)))
        .collect(Collectors.joining("\n", "", "\n"));
    var answer = http.send(
        request(node, "POST", "/api/v1/subscribers/import", lines)
            .setHeader("Content-Type", "application/x-ndjson")
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isBetween(200, 299);
  }

  private long campaign(NodeProcess node) throws Exception {
    JsonNode created = api(node, "POST", "/api/v1/campaigns", """
        {"name": "Cut mid-way", "from": {"email": "news@shop.test"}, "subject": "Picks",
         "html": "<p>Picks</p><a href=\\"{{unsubscribeUrl}}\\">Unsubscribe</a>", "text": "Picks",
         "slots": %d, "ratePerSecond": 40, "audience": {"type": "all"}}""".formatted(SLOTS));
    long id = created.path("id").asLong();
    api(node, "POST", "/api/v1/campaigns/" + id + "/send", "");
    return id;
  }

  private void awaitProgress(NodeProcess node, long campaign, long sent) throws Exception {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (api(node, "GET", "/api/v1/campaigns/" + campaign, "")
            .path("progress")
            .path("sent")
            .asLong()
        < sent) {
      assertThat(System.nanoTime()).as("%d emails sent", sent).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private JsonNode awaitCompleted(NodeProcess node, long campaign) throws Exception {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (true) {
      JsonNode json;
      try {
        json = api(node, "GET", "/api/v1/campaigns/" + campaign, "");
      } catch (AssertionError | IOException e) { // the node may answer 503 while it reconnects
        Thread.sleep(250);
        continue;
      }
      if (json.path("state").asString().startsWith("COMPLETED")) return json.path("progress");
      assertThat(System.nanoTime()).as("campaign completed; last: %s", json).isLessThan(deadline);
      Thread.sleep(250);
    }
  }

  /** When the outbox first held more than {@code count} emails (the send's recovery). */
  private static long awaitOutboxBeyond(MailWatch outbox, long count) throws Exception {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (outbox.count() <= count) {
      assertThat(System.nanoTime()).as("an email after the restore").isLessThan(deadline);
      Thread.sleep(50);
    }
    return outbox.receivedAt((int) count);
  }

  private JsonNode api(NodeProcess node, String method, String path, String body) throws Exception {
    HttpResponse<String> answer =
        http.send(request(node, method, path, body).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(path + ": " + answer.body()).isBetween(200, 299);
    return answer.body().isBlank() ? Json.MAPPER.nullNode() : Json.MAPPER.readTree(answer.body());
  }

  private static HttpRequest.Builder request(
      NodeProcess node, String method, String path, String body) {
    return HttpRequest.newBuilder(node.uri(path))
        .header("Authorization", "Bearer " + KEY)
        .header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(30))
        .method(method, HttpRequest.BodyPublishers.ofString(body));
  }

  private final long started = System.nanoTime();

  private void say(String what) {
    System.out.printf("[network cut] %5.1f s: %s%n", (System.nanoTime() - started) / 1e9, what);
  }

  static String address(int i) {
    return "r%05d@example.test".formatted(i);
  }

  private static int port(String jdbcUrl, int fallback) {
    return portOf(URI.create(jdbcUrl.substring("jdbc:".length())), fallback);
  }

  private static int portOf(URI uri, int fallback) {
    return uri.getPort() < 0 ? fallback : uri.getPort();
  }

  private static String throughProxy(String jdbcUrl, int port) {
    URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
    String hostPort = uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    return jdbcUrl.replaceFirst(Pattern.quote(hostPort), "127.0.0.1:" + port);
  }
}
