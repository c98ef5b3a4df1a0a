package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.app.CatalogWiring;
import dev.tidings.app.DeliveryWiring;
import dev.tidings.app.Node;
import dev.tidings.app.OpenTimeWiring;
import dev.tidings.app.Role;
import dev.tidings.catalog.ProductJson;
import dev.tidings.config.SettingsLoader;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.testing.RealServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.SqlStatements;
import org.jdbi.v3.core.statement.StatementContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How far two requests walk through the code on their way to the database, measured while they run:
 * at every SQL statement a request makes, on its own thread or on the threads that do its work beside
 * it (batched reads and writes, the recommender's parallel reads, the queue's consumer), the stack is
 * taken, and each of Tidings' source files on it is counted once. An email's first open on a warm
 * node (from the route to the slot list it keeps and the engagement it queues) stays within 22 files
 * (20 until the open also asked what the email's own digest told, two files of the notify capability;
 * 21 until the edge framed every answer itself, one filter every request passes), a delivery webhook
 * (from the route, through the queue, to the funnel tables) within 17 (15 before that filter, 16 before
 * the funnel told its new steps as events); a person's open through a webhook reaches the send-time
 * open hours through the event relay and the listener of the send-time package; and no stack climbs
 * back up: once a frame is below the edges (HTTP routes, wiring, command line), no deeper frame
 * is in them again. Code that reaches no statement (the card drawn, the blend's arithmetic) is not on
 * these stacks and not counted. Both walks are printed, file by file.
 */
class RequestPathIT {
  private static final String SECRET = "request-path-secret-0123456789";
  private static final String API_KEY = "request-path-api-key-0123456789";
  private static final Set<String> EDGES =
      Set.of("dev.tidings.web", "dev.tidings.app", "dev.tidings.cli");

  private final List<StackTraceElement[]> stacks = new CopyOnWriteArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private String database;
  private Node node;
  private URI base;

  @BeforeEach
  void start() throws Exception {
    database = "tidings_paths_" + UUID.randomUUID().toString().substring(0, 8);
    String url = RealServers.createDatabase(database);
    Path dataDir = Files.createTempDirectory("tidings-paths");
    node = Node.of(SettingsLoader.load(Map.of(
        "TIDINGS_DB_URL",
        url,
        "TIDINGS_DATA_DIR",
        dataDir.toString(),
        "TIDINGS_SECRET",
        SECRET,
        "TIDINGS_API_KEY",
        API_KEY,
        "TIDINGS_POSTMARK_WEBHOOK_USER",
        "postmark",
        "TIDINGS_POSTMARK_WEBHOOK_PASSWORD",
        "correct-horse-battery")));
    node.start(Role.DEMO, 0);
    base = URI.create("http://127.0.0.1:" + node.port());
    node.infrastructure()
        .database()
        .jdbi()
        .getConfig(SqlStatements.class)
        .setSqlLogger(new SqlLogger() {
          @Override
          public void logBeforeExecution(StatementContext context) {
            stacks.add(Thread.currentThread().getStackTrace());
          }
        });
  }

  @AfterEach
  void stop() throws Exception {
    if (node != null) node.close();
    RealServers.dropDatabase(database);
  }

  @Test
  void a_first_open_walks_through_at_most_22_files_and_never_climbs_back_up() throws Exception {
    var catalog = node.capability(CatalogWiring.class).catalog();
    for (int i = 0; i < 5; i++)
      catalog.put(ProductJson.fromJson(Json.MAPPER.readTree("""
          {"id":"p%d","title":"Product %d","price":"9.00","currency":"EUR",
           "imageUrl":"http://127.0.0.1:9/p.png","landingUrl":"https://shop.example/p"}""".formatted(i, i))));
    var tokens = node.capability(OpenTimeWiring.class).tokens();
    // another email first, so the node's caches (settings, the item model) are warm, as on a live
    // node: what is measured is an email's first open, not the node's
    String warm =
        tokens.encode(new MessageToken(new MessageId(1, 1, "reader-0"), Instant.now(), 3));
    var warmed = http.send(
        HttpRequest.newBuilder(base.resolve("/o/" + warm + "/0")).build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(warmed.statusCode()).isEqualTo(200);
    node.capability(OpenTimeWiring.class).chooser().flush();
    quiet();
    String token =
        tokens.encode(new MessageToken(new MessageId(1, 1, "reader-1"), Instant.now(), 3));
    stacks.clear();

    var response = http.send(
        HttpRequest.newBuilder(base.resolve("/o/" + token + "/0")).build(),
        HttpResponse.BodyHandlers.discarding());

    assertThat(response.statusCode()).isEqualTo(200);
    node.capability(OpenTimeWiring.class).chooser().flush(); // the kept list, written in a batch
    quiet(); // the engagement it recorded, handed to the queue in a batch
    Set<String> files = walk(RequestPathIT::ofAnOpen);
    assertThat(files).as("files of a first open").hasSizeBetween(5, 22);
    assertThat(files).contains("dev/tidings/opentime/SlotChooser.java");
  }

  @Test
  void a_webhook_receipt_reaches_the_funnel_through_at_most_17_files() throws Exception {
    String message = new MessageId(7, 1, "reader-7").text();
    var store = node.capability(DeliveryWiring.class).store();
    store.apply(
        List.of(Receipt.of(message, DeliveryStatus.SENT, Instant.now(), ReceiptSource.SMTP)),
        List.of());
    var event = Fixtures.withMessageId(
        Fixtures.json("postmark/anymail-tests/Delivery-delivered-event.json"), "Metadata", message);
    event.put("DeliveredAt", Instant.now().toString());
    stacks.clear();

    var response = http.send(
        HttpRequest.newBuilder(base.resolve("/webhooks/postmark"))
            .header("Content-Type", "application/json")
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString(
                            "postmark:correct-horse-battery".getBytes(StandardCharsets.UTF_8)))
            .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(event)))
            .build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(response.statusCode()).isBetween(200, 299);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (stacks.stream()
        .noneMatch(stack -> has(stack, "dev.tidings.delivery.ReceiptConsumer")
            && has(stack, "dev.tidings.delivery.ReceiptStore"))) {
      assertThat(System.nanoTime()).as("the receipt is applied").isLessThan(deadline);
      Thread.sleep(50);
    }
    Thread.sleep(500); // the rest of that transaction's statements

    Set<String> files = walk(stack -> has(stack, "dev.tidings.web.delivery.DeliveryWebhookRoutes")
        || (has(stack, "dev.tidings.delivery.ReceiptConsumer")
            && has(stack, "dev.tidings.delivery.ReceiptStore")));
    assertThat(files).as("files from the webhook to the funnel").hasSizeBetween(5, 17);
    assertThat(files).contains("dev/tidings/delivery/ReceiptStore.java");
  }

  @Test
  void a_human_open_reaches_the_open_hours_through_events_and_never_climbs_back_up()
      throws Exception {
    String message = new MessageId(7, 1, "reader-opens").text();
    var store = node.capability(DeliveryWiring.class).store();
    store.apply(
        List.of(Receipt.of(message, DeliveryStatus.SENT, Instant.now(), ReceiptSource.SMTP)),
        List.of());
    var event = Fixtures.withMessageId(
        Fixtures.json("postmark/anymail-tests/Open-open-event.json"), "Metadata", message);
    event.put("ReceivedAt", Instant.now().toString());
    stacks.clear();

    var response = http.send(
        HttpRequest.newBuilder(base.resolve("/webhooks/postmark"))
            .header("Content-Type", "application/json")
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString(
                            "postmark:correct-horse-battery".getBytes(StandardCharsets.UTF_8)))
            .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(event)))
            .build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(response.statusCode()).isBetween(200, 299);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (stacks.stream()
        .noneMatch(stack -> has(stack, "dev.tidings.sendtime.OpenHoursListener"))) {
      assertThat(System.nanoTime()).as("the open reaches the open hours").isLessThan(deadline);
      Thread.sleep(50);
    }
    Thread.sleep(500); // the rest of that transaction's statements

    Set<String> files = walk(stack -> has(stack, "dev.tidings.web.delivery.DeliveryWebhookRoutes")
        || (has(stack, "dev.tidings.delivery.ReceiptConsumer")
            && has(stack, "dev.tidings.delivery.ReceiptStore"))
        || has(stack, "dev.tidings.events.EventRelay")
        || has(stack, "dev.tidings.sendtime.OpenHoursListener"));
    assertThat(files)
        .contains(
            "dev/tidings/delivery/ReceiptStore.java",
            "dev/tidings/events/EventOutbox.java",
            "dev/tidings/events/EventRelay.java",
            "dev/tidings/sendtime/OpenHoursListener.java");
    assertThat(files)
        .as("the composition root only wires: no open passes through it")
        .noneMatch(file -> file.startsWith("dev/tidings/app/"));
  }

  /** The request's files, each once, in the order first met; checks that no stack climbs back up. */
  private Set<String> walk(Predicate<StackTraceElement[]> ofTheRequest) {
    var ours = new ArrayList<StackTraceElement[]>();
    for (StackTraceElement[] stack : stacks) if (ofTheRequest.test(stack)) ours.add(stack);
    assertThat(ours).as("statements of the request").isNotEmpty();
    Set<String> files = new LinkedHashSet<>();
    for (StackTraceElement[] stack : ours) {
      boolean belowTheEdges = false;
      for (int i = stack.length - 1; i >= 0; i--) { // outermost caller first
        String type = stack[i].getClassName();
        // this test's own statement logger is on every stack: it is not the request's
        if (!type.startsWith("dev.tidings.") || type.startsWith(RequestPathIT.class.getName()))
          continue;
        String topLevel = type.contains("$") ? type.substring(0, type.indexOf('$')) : type;
        String pkg = topLevel.substring(0, topLevel.lastIndexOf('.'));
        boolean edge = EDGES.stream().anyMatch(e -> pkg.equals(e) || pkg.startsWith(e + "."));
        assertThat(belowTheEdges && edge)
            .as("%s is called from below the edges", stack[i])
            .isFalse();
        if (!edge) belowTheEdges = true;
        files.add(topLevel.replace('.', '/') + ".java");
      }
    }
    System.out.println("walk: " + files.size() + " files\n  " + String.join("\n  ", files));
    return files;
  }

  /** Waits until the open-time path has made no statement for a second: its batches are done. */
  private void quiet() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    long seen = -1;
    long now = stacks.stream().filter(RequestPathIT::ofAnOpen).count();
    while (seen != now && System.nanoTime() < deadline) {
      seen = now;
      Thread.sleep(1_000);
      now = stacks.stream().filter(RequestPathIT::ofAnOpen).count();
    }
  }

  /**
   * A statement an open made: on the request's thread, or on the threads that do its work beside
   * it (the batched reads and writes of the open-time path, the recommender's parallel reads).
   */
  private static boolean ofAnOpen(StackTraceElement[] stack) {
    return hasPrefix(stack, "dev.tidings.web.opentime.")
        || hasPrefix(stack, "dev.tidings.opentime.")
        || hasPrefix(stack, "dev.tidings.storage.BatchedLookup")
        || hasPrefix(stack, "dev.tidings.recommend.blend.SignalReader");
  }

  private static boolean hasPrefix(StackTraceElement[] stack, String prefix) {
    for (StackTraceElement frame : stack) if (frame.getClassName().startsWith(prefix)) return true;
    return false;
  }

  private static boolean has(StackTraceElement[] stack, String type) {
    for (StackTraceElement frame : stack)
      if (frame.getClassName().equals(type) || frame.getClassName().startsWith(type + "$"))
        return true;
    return false;
  }
}
