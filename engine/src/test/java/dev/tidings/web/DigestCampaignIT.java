package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.SharedServersInstallation;
import jakarta.mail.BodyPart;
import jakarta.mail.Message;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * A digest campaign end to end on two nodes sharing the real PostgreSQL, Redis and RabbitMQ (an HTTP
 * node and a worker that sends to its outbox): new products of a followed brand become notifications by
 * themselves, the digest email tells them with their pictures and links, a subscriber with nothing to
 * tell gets no email, and the next digest tells only what is new since.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class DigestCampaignIT {
  private static final String KEY = "tk_digest_test_key_0123456789";
  private SharedServersInstallation installation;
  private NodeProcess server;
  private NodeProcess worker;
  private ApiClient api;

  @BeforeAll
  void start() throws Exception {
    installation = SharedServersInstallation.create("digest", KEY);
    var environment = installation.environment();
    server = NodeProcess.start(environment);
    worker = NodeProcess.start("worker", List.of(), environment);
    var http = HttpClient.newHttpClient();
    server.awaitHealthy(http, Duration.ofSeconds(90));
    worker.awaitHealthy(http, Duration.ofSeconds(90));
    api = new ApiClient(server.uri("/").getPort(), KEY);
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (server != null) server.close();
      if (worker != null) worker.close();
    } finally {
      if (installation != null) installation.drop();
    }
  }

  @Test
  void a_digest_tells_each_new_product_once_and_skips_who_has_nothing_to_tell() throws Exception {
    subscriber("ann");
    subscriber("bob");
    assertThat(api.putJson("/api/v1/subscribers/ann/follows/brand/velin", "").status())
        .isIn(200, 201, 204);
    product("boots", "velin", "Velin winter boots");
    product("scarf", "velin", "Velin wool scarf");
    product("kettle", "other", "Other kettle");
    awaitNotifications("ann", 2);

    long first = digestCampaign("First digest");
    awaitCompleted(first);
    List<Email> sent = outbox();
    assertThat(sent).extracting(Email::to).containsExactly("ann@example.test");
    Email email = sent.getFirst();
    assertThat(email.subject()).isEqualTo("2 new from what you follow");
    assertThat(email.html())
        .contains("Velin winter boots", "Velin wool scarf")
        .contains("href=\"https://shop.test/boots\"", "src=\"https://img.shop.test/boots.jpg\"")
        .doesNotContain("Other kettle");
    assertThat(email.text()).contains("Velin winter boots", "https://shop.test/scarf");
    assertThat(api.get("/api/v1/users/ann/notifications").json().path("count").asInt())
        .as("the sent digest was marked told")
        .isZero();
    JsonNode progress = api.get("/api/v1/campaigns/" + first).json().path("progress");
    assertThat(progress.path("sent").asLong()).isEqualTo(1);
    assertThat(progress.path("skipped").asLong()).as("bob: nothing to tell").isEqualTo(1);
    JsonNode digests = api.get("/api/v1/campaigns/" + first + "/digests").json();
    assertThat(digests.path("digests").asLong()).isEqualTo(1);
    assertThat(digests.path("pieces").asLong()).isEqualTo(2);
    assertThat(digests.path("latest").path(0).path("userId").asString()).isEqualTo("ann");
    assertThat(awaitEventsOf(first, 3))
        .as("what the run told, read from the events API")
        .containsExactlyInAnyOrder(
            "dev.tidings.campaign.handed_over:" + first,
            "dev.tidings.notify.digest_sent:ann",
            "dev.tidings.campaign.run_completed:" + first);

    product("gloves", "velin", "Velin leather gloves");
    awaitNotifications("ann", 1);
    long second = digestCampaign("Second digest");
    awaitCompleted(second);
    List<Email> both = outbox();
    assertThat(both).hasSize(2);
    Email next = both.stream()
        .filter(e -> !e.messageId().equals(email.messageId()))
        .findFirst()
        .orElseThrow();
    assertThat(next.html()).contains("Velin leather gloves").doesNotContain("Velin winter boots");
    assertThat(api.get("/api/v1/campaigns/x/digests").status()).isEqualTo(400);
  }

  /** The campaign's events in the log (type:subject), once at least {@code count} are there. */
  private List<String> awaitEventsOf(long campaign, int count) throws InterruptedException {
    String path = "/api/v1/events?limit=1000&type=dev.tidings.campaign.handed_over"
        + "&type=dev.tidings.campaign.run_completed&type=dev.tidings.notify.digest_sent";
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      List<String> told = new java.util.ArrayList<>();
      for (JsonNode event : api.get(path).json().path("events"))
        if (event.path("data").path("campaignId").asLong() == campaign)
          told.add(event.path("type").asString() + ":" + event.path("subject").asString());
      if (told.size() >= count || System.nanoTime() > deadline) return told;
      Thread.sleep(100);
    }
  }

  private void subscriber(String id) {
    var answer = api.putJson("/api/v1/subscribers/" + id, """
        {"email": "%s@example.test", "name": "%s Example", "consent": "subscribed"}""".formatted(id, id));
    assertThat(answer.status()).as(answer.body()).isIn(200, 201);
  }

  private void product(String id, String brand, String title) {
    var answer = api.putJson("/api/v1/products/" + id, """
        {"title": "%s", "brand": "%s", "price": "49.00", "currency": "EUR",
         "imageUrl": "https://img.shop.test/%s.jpg", "landingUrl": "https://shop.test/%s"}""".formatted(title, brand, id, id));
    assertThat(answer.status()).as(answer.body()).isIn(200, 201);
  }

  private void awaitNotifications(String user, int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    int seen = -1;
    while (System.nanoTime() < deadline) {
      seen = api.get("/api/v1/users/" + user + "/notifications")
          .json()
          .path("count")
          .asInt();
      if (seen == count) return;
      Thread.sleep(200);
    }
    throw new AssertionError(user + " has " + seen + " notifications, expected " + count);
  }

  private long digestCampaign(String name) {
    var created = api.postJson("/api/v1/campaigns", """
        {"name": "%s", "from": {"email": "news@shop.test", "name": "Shop"},
         "subject": "{{notificationCount}} new from what you follow",
         "html": "<html><body><h1>Hello {{subscriber.firstName}}</h1></body></html>",
         "text": "Hello {{subscriber.firstName}}", "slots": 2, "ratePerSecond": 100,
         "audience": {"type": "all"}, "digest": {"lookBackDays": 7, "minimum": 1}}""".formatted(name));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().path("digest").path("minimum").asInt()).isEqualTo(1);
    long id = created.json().path("id").asLong();
    var sent = api.postJson("/api/v1/campaigns/" + id + "/send", "");
    assertThat(sent.status()).as(sent.body()).isIn(200, 202);
    return id;
  }

  private void awaitCompleted(long campaign) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String state = "";
    while (System.nanoTime() < deadline) {
      state = api.get("/api/v1/campaigns/" + campaign).json().path("state").asString();
      if (state.startsWith("COMPLETED")) return;
      Thread.sleep(250);
    }
    throw new AssertionError("campaign " + campaign + " is " + state);
  }

  record Email(String messageId, String to, String subject, String html, String text) {}

  private List<Email> outbox() throws Exception {
    Path outbox = worker.dataDir().resolve("outbox");
    List<Email> emails = new ArrayList<>();
    if (!Files.isDirectory(outbox)) return emails;
    try (Stream<Path> files = Files.walk(outbox)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".eml")).toList()) {
        var message = new MimeMessage(
            Session.getInstance(new Properties()),
            new ByteArrayInputStream(Files.readAllBytes(file)));
        var parts = new String[2];
        collect(message, parts);
        emails.add(new Email(
            message.getMessageID(),
            ((InternetAddress) message.getRecipients(Message.RecipientType.TO)[0]).getAddress(),
            message.getSubject(),
            parts[0] == null ? "" : parts[0],
            parts[1] == null ? "" : parts[1]));
      }
    }
    return emails;
  }

  private static void collect(Part part, String[] htmlAndText) throws Exception {
    if (part.isMimeType("text/html")) htmlAndText[0] = content(part);
    else if (part.isMimeType("text/plain")) htmlAndText[1] = content(part);
    else if (part.getContent() instanceof Multipart multipart)
      for (int i = 0; i < multipart.getCount(); i++) {
        BodyPart body = multipart.getBodyPart(i);
        collect(body, htmlAndText);
      }
  }

  private static String content(Part part) throws Exception {
    try {
      return part.getContent().toString();
    } catch (IOException e) {
      throw new IllegalStateException("unreadable part", e);
    }
  }
}
