package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.SharedServersInstallation;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * An abandoned-cart journey made, activated, driven by activity posted to {@code POST
 * /api/v1/events} and measured, entirely through the API: on the embedded default (one node) and on
 * the real PostgreSQL, Redis and RabbitMQ (a server node and a worker). Its waits are seconds where a
 * shop's are an hour and a day, so that the test runs in under a minute: a person who buys before the
 * first wait ends gets nothing; one who does not gets the reminder, then the last call; one who buys
 * after the reminder gets no last call; a second cart within the re-entry period is no new entry, and
 * one after it is.
 */
@Timeout(300)
class AbandonedCartJourneyIT {
  private static final String KEY = "tk_abandoned_cart_journey_0123456789";
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<NodeProcess> nodes = new ArrayList<>();
  private SharedServersInstallation installation;

  @AfterEach
  void stop() throws Exception {
    nodes.reversed().forEach(NodeProcess::close);
    if (installation != null) installation.drop();
  }

  @Test
  void on_the_embedded_default() throws Exception {
    // the node's own data directory holds its embedded database and its outbox
    var environment = new HashMap<String, String>();
    environment.put("TIDINGS_API_KEY", KEY);
    NodeProcess node = start("serve", environment);
    abandonedCart(node, node);
  }

  @Test
  void on_the_real_servers() throws Exception {
    installation = SharedServersInstallation.create("journeys", KEY);
    var environment = installation.environment();
    NodeProcess server = start("serve", environment);
    NodeProcess worker = start("worker", environment);
    abandonedCart(server, worker);
  }

  private NodeProcess start(String command, java.util.Map<String, String> environment)
      throws Exception {
    NodeProcess node = NodeProcess.start(command, List.of(), environment);
    nodes.add(node);
    node.awaitHealthy(http, Duration.ofSeconds(90));
    return node;
  }

  private void abandonedCart(NodeProcess server, NodeProcess worker) throws Exception {
    try {
      scenario(server, worker);
    } catch (AssertionError | RuntimeException e) {
      String log = worker.log();
      throw new AssertionError(
          e.getMessage() + "\n--- the sending node's log, last 6,000 characters:\n"
              + log.substring(Math.max(0, log.length() - 6_000)),
          e);
    }
  }

  private void scenario(NodeProcess server, NodeProcess worker) throws Exception {
    var api = new ApiClient(server.uri("/").getPort(), KEY);
    for (String person : List.of("ann", "bob", "cy")) subscriber(api, person);
    for (String item : List.of("boots", "scarf", "gloves", "hat")) product(api, item);
    long reminder = campaign(api, "Still in your cart");
    long lastCall = campaign(api, "Last call for your cart");
    var made = api.postJson("/api/v1/journeys", """
        {"name": "Abandoned cart",
         "trigger": {"type": "did", "activity": "add_to_cart", "within": "PT1H"},
         "entry": {"reentryAfter": "PT25S"},
         "steps": [
           {"id": "first-wait", "type": "wait", "for": "PT3S", "next": "reminder"},
           {"id": "reminder", "type": "send", "campaignId": %d, "next": "second-wait"},
           {"id": "second-wait", "type": "wait", "for": "PT4S", "next": "last-call"},
           {"id": "last-call", "type": "send", "campaignId": %d}],
         "goal": "purchase", "holdOut": 0}""".formatted(reminder, lastCall));
    assertThat(made.status()).as(made.body()).isEqualTo(201);
    long journey = made.json().path("id").asLong();
    assertThat(made.json().path("state").asString()).isEqualTo("DRAFT");
    var activated = api.postJson("/api/v1/journeys/" + journey + "/activate", "");
    assertThat(activated.status()).as(activated.body()).isEqualTo(200);
    assertThat(activated.json().path("state").asString()).isEqualTo("ACTIVE");
    // a node reads the journeys' states at most once a second
    Thread.sleep(1_200);

    Instant start = Instant.now();
    activity(api, "ann", "add_to_cart", "boots");
    activity(api, "ann", "purchase", "boots");
    activity(api, "bob", "add_to_cart", "scarf");
    activity(api, "cy", "add_to_cart", "gloves");

    await("the reminder to bob and cy")
        .atMost(Duration.ofSeconds(60))
        .until(() -> subjectsTo(worker, "cy@example.test").contains("Still in your cart")
            && subjectsTo(worker, "bob@example.test").contains("Still in your cart"));
    assertThat(Duration.between(start, Instant.now()))
        .as("not before the first wait ended")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    activity(api, "cy", "purchase", "gloves");

    await("the last call to bob")
        .atMost(Duration.ofSeconds(60))
        .until(() -> subjectsTo(worker, "bob@example.test").contains("Last call for your cart"));
    await("everyone out")
        .atMost(Duration.ofSeconds(30))
        .until(() -> figures(api, journey).path("inside").asLong() == 0);
    // a look after the second wait: cy's last call would have gone by now
    Thread.sleep(1_000);
    assertThat(subjectsTo(worker, "ann@example.test"))
        .as("ann bought within the hour")
        .isEmpty();
    assertThat(subjectsTo(worker, "bob@example.test"))
        .containsExactlyInAnyOrder("Still in your cart", "Last call for your cart");
    assertThat(subjectsTo(worker, "cy@example.test"))
        .as("cy bought after the reminder")
        .containsExactly("Still in your cart");
    assertThat(htmlTo(worker, "bob@example.test"))
        .as("bob's reminder shows his own cart, not another's")
        .allSatisfy(html -> assertThat(html)
            .contains("Velin scarf", "In your cart", "https://img.shop.test/scarf.jpg")
            .doesNotContain("Velin gloves"));

    JsonNode figures = figures(api, journey);
    assertThat(figures.path("entries").asLong()).isEqualTo(3);
    assertThat(figures.path("exits").path("GOAL").asLong()).as("ann and cy").isEqualTo(2);
    assertThat(figures.path("exits").path("COMPLETED").asLong()).as("bob").isEqualTo(1);
    assertThat(step(figures, "reminder").path("sent").asLong()).isEqualTo(2);
    assertThat(step(figures, "last-call").path("sent").asLong()).isEqualTo(1);
    assertThat(figures.path("lift").path("sent").path("entrants").asLong()).isEqualTo(3);
    assertThat(figures.path("lift").path("sent").path("converted").asLong()).isEqualTo(2);

    // bob's second cart within the re-entry period lets him in no again; one after it does
    activity(api, "bob", "add_to_cart", "hat");
    Thread.sleep(2_000);
    assertThat(figures(api, journey).path("entries").asLong()).isEqualTo(3);
    Duration waited = Duration.between(start, Instant.now());
    if (waited.compareTo(Duration.ofSeconds(26)) < 0)
      Thread.sleep(Duration.ofSeconds(26).minus(waited).toMillis());
    activity(api, "bob", "add_to_cart", "hat");
    await("bob's second entry")
        .atMost(Duration.ofSeconds(30))
        .until(() -> figures(api, journey).path("entries").asLong() == 4);
    await("bob's second reminder, an email of its own")
        .atMost(Duration.ofSeconds(60))
        .until(() -> subjectsTo(worker, "bob@example.test").stream()
                .filter("Still in your cart"::equals)
                .count()
            == 2);
  }

  private static JsonNode step(JsonNode figures, String id) {
    for (JsonNode step : figures.path("steps"))
      if (step.path("step").asString().equals(id)) return step;
    throw new AssertionError("no step " + id + " in " + figures);
  }

  private static JsonNode figures(ApiClient api, long journey) {
    var answer = api.get("/api/v1/journeys/" + journey + "/figures");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json();
  }

  private static void subscriber(ApiClient api, String id) {
    var answer = api.putJson("/api/v1/subscribers/" + id, """
        {"email": "%s@example.test", "name": "%s Example", "consent": "subscribed"}""".formatted(id, id));
    assertThat(answer.status()).as(answer.body()).isIn(200, 201);
  }

  private static void product(ApiClient api, String id) {
    var answer = api.putJson("/api/v1/products/" + id, """
        {"title": "Velin %s", "brand": "velin", "price": "49.00", "currency": "EUR",
         "imageUrl": "https://img.shop.test/%s.jpg", "landingUrl": "https://shop.test/%s"}""".formatted(id, id, id));
    assertThat(answer.status()).as(answer.body()).isIn(200, 201);
  }

  private static long campaign(ApiClient api, String subject) {
    var created = api.postJson("/api/v1/campaigns", """
        {"name": "%s", "from": {"email": "news@shop.test", "name": "Shop"},
         "subject": "%s",
         "html": "<html><body><p>Hello {{subscriber.firstName}}</p></body></html>",
         "text": "Hello {{subscriber.firstName}}", "slots": 0, "ratePerSecond": 100,
         "audience": {"type": "all"}}""".formatted(subject, subject));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().path("id").asLong();
  }

  private static void activity(ApiClient api, String person, String type, String item) {
    var answer = api.postJson("/api/v1/events", """
        [{"userId": "%s", "type": "%s", "itemId": "%s", "timestamp": "%s"}]""".formatted(person, type, item, Instant.now()));
    assertThat(answer.status()).as(answer.body()).isEqualTo(202);
  }

  /** The subjects of the emails to {@code address} in the sending node's outbox. */
  private static List<String> subjectsTo(NodeProcess worker, String address) throws Exception {
    List<String> subjects = new ArrayList<>();
    for (MimeMessage message : emailsTo(worker, address)) subjects.add(message.getSubject());
    return subjects;
  }

  /** The HTML parts of the emails to {@code address}. */
  private static List<String> htmlTo(NodeProcess worker, String address) throws Exception {
    List<String> html = new ArrayList<>();
    for (MimeMessage message : emailsTo(worker, address)) html.add(html(message));
    return html;
  }

  private static String html(jakarta.mail.Part part) throws Exception {
    if (part.isMimeType("text/html")) return part.getContent().toString();
    if (part.getContent() instanceof jakarta.mail.Multipart multipart)
      for (int i = 0; i < multipart.getCount(); i++) {
        String found = html(multipart.getBodyPart(i));
        if (!found.isEmpty()) return found;
      }
    return "";
  }

  private static List<MimeMessage> emailsTo(NodeProcess worker, String address) throws Exception {
    Path outbox = worker.dataDir().resolve("outbox");
    List<MimeMessage> emails = new ArrayList<>();
    if (!Files.isDirectory(outbox)) return emails;
    try (Stream<Path> files = Files.walk(outbox)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".eml")).toList()) {
        var message = new MimeMessage(
            Session.getInstance(new java.util.Properties()),
            new ByteArrayInputStream(Files.readAllBytes(file)));
        var to = (InternetAddress) message.getRecipients(Message.RecipientType.TO)[0];
        if (to.getAddress().equals(address)) emails.add(message);
      }
    }
    return emails;
  }
}
