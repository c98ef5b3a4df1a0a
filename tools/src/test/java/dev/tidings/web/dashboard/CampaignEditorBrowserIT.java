package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.demo.SentEmail;
import dev.tidings.message.MessageId;
import dev.tidings.testing.NodeProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * A person makes a campaign in the dashboard, in Debian's headless Chromium against {@code tidings demo
 * --no-engagement}: signs in, starts from the open-time picks template, narrows the audience to one
 * country and watches the count follow, previews the email as one subscriber, sends a test to
 * themselves, schedules it a minute or two ahead, and finds one email per member of the segment in the
 * outbox once it ran, whose open-time slots show products. Then edits a draft, meets the error for an
 * unsafe template at its line, cancels a scheduled campaign, and finds one of the segment on the
 * Subscribers pages, whose address it suppresses and lifts again. Screenshots of each page.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CampaignEditorBrowserIT {
  private static final String KEY = "campaign-editor-browser-test-key-0123456789";
  private static final String PERSON =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)";
  private static final String TESTER = "tester@example.com";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static NodeProcess node;
  private static WebDriver browser;
  private static Path profile;
  private static final HttpClient http = HttpClient.newHttpClient();

  /** The segment: the subscribed people of the demo's most common country. */
  private static String country;

  private static Map<String, String> members;
  private static String outsider;
  private static long campaignId;
  private static long draftId;

  @BeforeAll
  static void start() throws Exception {
    HeadlessChromium.assumeInstalled();
    node = NodeProcess.start(
        List.of("demo", "--subscribers", "24", "--products", "60", "--no-engagement"),
        List.of(),
        Map.of("TIDINGS_API_KEY", KEY));
    node.awaitHealthy(http, Duration.ofMinutes(3));
    profile = Files.createTempDirectory("tidings-chromium-");
    browser = HeadlessChromium.start(profile);
    pickSegment();
  }

  @AfterAll
  static void stop() {
    if (browser != null) browser.quit();
    if (node != null) node.close();
  }

  /** The country with most subscribed people (but not everyone), from the API. */
  private static void pickSegment() throws Exception {
    JsonNode items = Json.MAPPER.readTree(api("/api/v1/subscribers?limit=200")).path("items");
    Map<String, Map<String, String>> byCountry = new HashMap<>();
    List<String> everyone = new ArrayList<>();
    for (JsonNode s : items) {
      if (!s.path("consent").asString("").equals("subscribed")) continue;
      everyone.add(s.path("id").asString());
      byCountry
          .computeIfAbsent(s.path("country").asString(""), c -> new HashMap<>())
          .put(s.path("id").asString(), s.path("email").asString());
    }
    var best = byCountry.entrySet().stream()
        .filter(e -> !e.getKey().isEmpty() && e.getValue().size() < everyone.size())
        .max(Map.Entry.comparingByValue(Comparator.comparingInt(Map::size)))
        .orElseThrow();
    country = best.getKey();
    members = best.getValue();
    outsider =
        everyone.stream().filter(id -> !members.containsKey(id)).findFirst().orElseThrow();
    assertThat(members).hasSizeGreaterThan(1);
  }

  @Test
  @Order(1)
  void a_campaign_starts_from_a_template_and_its_segment_shows_its_count_as_it_is_built() {
    signIn();
    browser.findElement(By.linkText("New campaign")).click();
    await(b -> b.getCurrentUrl().endsWith("/campaigns/new"));
    browser
        .findElement(By.cssSelector("a[href='/campaigns/new?template=open-time-picks']"))
        .click();
    await(b -> field("subject").getAttribute("value").contains("three picks"));
    assertThat(field("slots").getAttribute("value")).isEqualTo("3");
    assertThat(field("html").getAttribute("value")).contains("{{#slots}}");

    replace(field("name"), "Picks for " + country);
    replace(field("fromEmail"), "news@shop.example");
    new Select(field("c0.type")).selectByValue("country");
    field("c0.value").sendKeys(country);
    String expected = members.size() + " subscribers would get it now";
    await(b -> b.findElement(By.cssSelector("output[data-count]")).getText().equals(expected));
    screenshot("campaign-new");

    browser.findElement(By.id("save")).click();
    await(b -> b.getCurrentUrl().contains("?done=created"));
    campaignId = idIn(browser.getCurrentUrl());
    assertThat(browser.findElement(By.cssSelector("[role=status]")).getText())
        .contains("Saved as a draft");
    JsonNode stored = Json.MAPPER.readTree(api("/api/v1/campaigns/" + campaignId));
    assertThat(stored.path("state").asString()).isEqualTo("DRAFT");
    assertThat(stored.path("slots").asInt()).isEqualTo(3);
    assertThat(stored
            .path("audience")
            .path("conditions")
            .get(0)
            .path("values")
            .get(0)
            .asString())
        .isEqualTo(country);
  }

  @Test
  @Order(2)
  void the_preview_shows_one_subscribers_email_its_slots_and_whether_they_would_get_it() {
    String member = members.keySet().iterator().next();
    browser.get(url("/campaigns/" + campaignId + "/edit"));
    field("previewAs").sendKeys(members.get(member));
    browser.findElement(By.cssSelector("form[action$='/preview'] button")).click();
    await(b -> b.getCurrentUrl().contains("/preview?subscriber="));
    assertThat(browser.findElement(By.cssSelector(".verdict")).getText())
        .isEqualTo("Would get it.");
    assertThat(browser.findElement(By.cssSelector("dl.headers")).getText())
        .contains(members.get(member))
        .contains("three picks chosen when you open this");
    assertThat(browser.findElement(By.cssSelector("pre.text-part")).getText()).contains("/u/");
    WebElement frame = browser.findElement(By.cssSelector("iframe.email-frame"));
    assertThat(frame.getAttribute("sandbox")).isEmpty();
    assertThat(browser.findElements(By.cssSelector("#slotsnow ~ ol.cards .product")))
        .as("what the three slots would show now")
        .hasSize(3);
    screenshot("campaign-preview");

    replace(field("subscriber"), outsider);
    browser.findElement(By.cssSelector("form[action$='/preview'] button")).click();
    await(b -> b.getCurrentUrl().contains("subscriber=" + outsider));
    assertThat(browser.findElement(By.cssSelector(".verdict")).getText())
        .startsWith("Would not get it:")
        .contains("not in the campaign's audience");
  }

  @Test
  @Order(3)
  void a_test_goes_to_the_typed_address_marked_as_a_test() throws Exception {
    browser.get(url("/campaigns/" + campaignId + "/edit"));
    field("testTo").sendKeys(TESTER);
    browser.findElement(By.cssSelector("form[action$='/test'] button")).click();
    await(b -> b.getCurrentUrl().contains("done=tested"));
    assertThat(browser.findElement(By.cssSelector("[role=status]")).getText())
        .contains("counts in no funnel");
    long deadline = System.nanoTime() + WAIT.toNanos();
    List<String> tests;
    while ((tests = emlsTo(TESTER)).isEmpty()) {
      assertThat(System.nanoTime()).as("the test in the outbox").isLessThan(deadline);
      Thread.sleep(200);
    }
    assertThat(tests).singleElement().satisfies(eml -> {
      assertThat(eml).contains("Subject: [Test]").contains("X-Tidings-Test: true");
      var email = SentEmail.parse(eml).orElseThrow();
      assertThat(MessageId.parse(email.messageId()).orElseThrow().runId())
          .as("the uncounted run")
          .isZero();
    });
  }

  @Test
  @Order(4)
  void scheduled_a_minute_ahead_it_sends_one_email_to_each_member_with_working_slots()
      throws Exception {
    String at = LocalDateTime.ofInstant(
            Instant.now().plus(2, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MINUTES),
            ZoneOffset.UTC)
        .toString();
    setValue(field("at"), at);
    browser
        .findElement(By.cssSelector("form input[name=action][value=schedule] ~ p button"))
        .click();
    await(b -> b.getCurrentUrl().contains("/confirm?action=schedule"));
    assertThat(browser.findElement(By.cssSelector(".confirm .big")).getText())
        .contains("goes to " + members.size() + " subscribers");
    screenshot("campaign-confirm");
    browser.findElement(By.cssSelector(".confirm form button")).click();
    await(b -> b.getCurrentUrl().endsWith("/campaigns/" + campaignId + "?done=schedule"));
    assertThat(Json.MAPPER
            .readTree(api("/api/v1/campaigns/" + campaignId))
            .path("state")
            .asString())
        .isEqualTo("SCHEDULED");

    Awaitility.await("the scheduled campaign ran")
        .atMost(Duration.ofMinutes(4))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> Json.MAPPER
            .readTree(api("/api/v1/campaigns/" + campaignId))
            .path("state")
            .asString()
            .startsWith("COMPLETED"));
    List<SentEmail> sent = SentEmail.readOutbox(node.dataDir().resolve("outbox")).stream()
        .filter(email -> MessageId.parse(email.messageId())
            .map(id -> id.campaignId() == campaignId && id.runId() != MessageId.UNCOUNTED_RUN)
            .orElse(false))
        .toList();
    List<String> recipients = sent.stream()
        .map(email -> MessageId.parse(email.messageId()).orElseThrow().subscriberId())
        .toList();
    assertThat(recipients)
        .as("one email per member of the segment")
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(members.keySet());
    for (SentEmail email : sent) {
      assertThat(email.slots()).isEqualTo(3);
      var image = http.send(
          HttpRequest.newBuilder(node.uri("/o/" + email.token() + "/0"))
              .header("User-Agent", PERSON)
              .build(),
          HttpResponse.BodyHandlers.discarding());
      assertThat(image.statusCode()).isEqualTo(200);
      assertThat(image.headers().firstValue("Content-Type").orElse("")).startsWith("image/");
      var click = http.send(
          HttpRequest.newBuilder(node.uri("/c/" + email.token() + "/0"))
              .header("User-Agent", PERSON)
              .build(),
          HttpResponse.BodyHandlers.discarding());
      assertThat(click.statusCode()).as("the slot's link goes to its product").isEqualTo(302);
    }
    browser.get(url("/campaigns/" + campaignId));
    screenshot("campaign-sent");
  }

  @Test
  @Order(5)
  void a_draft_is_edited_and_an_unsafe_template_is_refused_at_its_line() throws Exception {
    browser.get(url("/campaigns/new"));
    replace(field("name"), "Winter letter");
    replace(field("fromEmail"), "news@shop.example");
    replace(field("subject"), "Winter is here");
    setValue(
        field("html"),
        "<html><body>\n<p>Hello {{subscriber.firstName}}</p>\n"
            + "<p><a href=\"{{unsubscribeUrl}}\">Unsubscribe</a></p>\n</body></html>");
    setValue(field("text"), "Hello {{subscriber.firstName}}\n\nUnsubscribe: {{unsubscribeUrl}}");
    browser.findElement(By.id("save")).click();
    await(b -> b.getCurrentUrl().contains("?done=created"));
    draftId = idIn(browser.getCurrentUrl());
    browser.findElement(By.linkText("Edit")).click(); // a new draft opens on its campaign's page
    await(b -> b.getCurrentUrl().endsWith("/campaigns/" + draftId + "/edit"));

    replace(field("subject"), "Winter is here, {{subscriber.firstName}}");
    browser.findElement(By.id("save")).click();
    await(b -> b.getCurrentUrl().contains("/edit?done=saved"));
    assertThat(field("subject").getAttribute("value"))
        .isEqualTo("Winter is here, {{subscriber.firstName}}");
    JsonNode stored = Json.MAPPER.readTree(api("/api/v1/campaigns/" + draftId));
    assertThat(stored.path("subject").asString())
        .isEqualTo("Winter is here, {{subscriber.firstName}}");

    setValue(
        field("html"),
        "<html><body>\n<p>Hello</p>\n<script>steal(document.cookie)</script>\n"
            + "<p><a href=\"{{unsubscribeUrl}}\">Unsubscribe</a></p>\n</body></html>");
    browser.findElement(By.id("save")).click();
    var problems = await(b -> b.findElements(By.cssSelector(".problems[role=alert]")).stream()
        .findFirst()
        .orElse(null));
    assertThat(problems.getText()).contains("HTML part").contains("line 3");
    assertThat(field("html").getAttribute("aria-invalid")).isEqualTo("true");
    assertThat(field("html").getAttribute("value"))
        .as("what was typed comes back to be fixed")
        .contains("<script>");
    screenshot("campaign-problem");
    assertThat(Json.MAPPER
            .readTree(api("/api/v1/campaigns/" + draftId))
            .path("html")
            .asString())
        .as("nothing of the refused form was stored")
        .doesNotContain("<script>");
  }

  @Test
  @Order(6)
  void a_scheduled_campaign_is_cancelled_after_a_confirmation() throws Exception {
    browser.get(url("/campaigns/" + draftId + "/edit"));
    setValue(
        field("at"),
        LocalDateTime.ofInstant(
                Instant.now().plus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES),
                ZoneOffset.UTC)
            .toString());
    browser
        .findElement(By.cssSelector("form input[name=action][value=schedule] ~ p button"))
        .click();
    await(b -> b.getCurrentUrl().contains("/confirm?action=schedule"));
    browser.findElement(By.cssSelector(".confirm form button")).click();
    await(b -> b.getCurrentUrl().contains("?done=schedule"));

    browser.findElement(By.linkText("Cancel…")).click();
    await(b -> b.getCurrentUrl().contains("/confirm?action=cancel"));
    assertThat(browser.findElement(By.cssSelector(".confirm .big")).getText())
        .startsWith("It will not start");
    browser.findElement(By.cssSelector(".confirm form button.danger")).click();
    await(b -> b.getCurrentUrl().contains("?done=cancel"));
    assertThat(browser.findElement(By.cssSelector("[role=status]")).getText())
        .isEqualTo("Cancelled.");
    assertThat(Json.MAPPER
            .readTree(api("/api/v1/campaigns/" + draftId))
            .path("state")
            .asString())
        .isEqualTo("CANCELLED");
  }

  @Test
  @Order(7)
  void a_member_is_found_and_their_page_shows_the_email_and_suppresses_and_lifts() {
    String member = members.keySet().iterator().next();
    String email = members.get(member);
    browser.get(url("/"));
    browser.findElement(By.linkText("Subscribers")).click();
    field("q").sendKeys(email.substring(0, email.indexOf('@')));
    browser.findElement(By.cssSelector("form[role=search] button")).click();
    await(b -> b.getCurrentUrl().contains("q="));
    screenshot("subscribers");
    browser.findElement(By.linkText(member)).click();
    await(b -> b.getCurrentUrl().endsWith("/subscribers/" + member));
    var emails = browser.findElement(By.id("emails")).findElement(By.xpath(".."));
    assertThat(emails.getText()).contains("Picks for " + country);

    new Select(field("reason")).selectByValue("manual");
    browser
        .findElement(By.cssSelector("form[action$='/suppression/add'] button"))
        .click();
    await(b -> b.getCurrentUrl().contains("done=added"));
    assertThat(api("/api/v1/suppressions/" + email)).contains("manual");
    screenshot("subscriber");
    browser
        .findElement(By.cssSelector("form[action$='/suppression/lift'] button"))
        .click();
    await(b -> b.getCurrentUrl().contains("done=lifted"));
    assertThat(browser.findElements(By.cssSelector("form[action$='/suppression/add']")))
        .hasSize(1);
  }

  @Test
  @Order(8)
  void the_editor_fits_a_phone() {
    browser.manage().window().setSize(new Dimension(390, 844));
    try {
      browser.get(url("/campaigns/new?template=newsletter"));
      Object overflow = ((JavascriptExecutor) browser)
          .executeScript("return document.documentElement.scrollWidth - window.innerWidth");
      assertThat(((Number) overflow).longValue())
          .as("no sideways scrolling")
          .isLessThanOrEqualTo(0);
      screenshot("campaign-new-phone");
    } finally {
      browser.manage().window().setSize(new Dimension(1280, 900));
    }
  }

  @Test
  @Order(9)
  void a_campaign_sent_per_subscriber_shows_the_hours_it_planned_for_everyone() throws Exception {
    browser.get(url("/campaigns/new?template=open-time-picks"));
    await(b -> field("subject").getAttribute("value").contains("three picks"));
    replace(field("name"), "At their hour in " + country);
    replace(field("fromEmail"), "news@shop.example");
    new Select(field("c0.type")).selectByValue("country");
    field("c0.value").sendKeys(country);
    ((JavascriptExecutor) browser)
        .executeScript(
            "arguments[0].open = true",
            field("sendTime").findElement(By.xpath("ancestor::details")));
    new Select(field("sendTime")).selectByValue("per-subscriber");
    replace(field("within"), "PT12H");
    replace(field("holdout"), "20");
    browser.findElement(By.id("save")).click();
    await(b -> b.getCurrentUrl().contains("?done=created"));
    long id = idIn(browser.getCurrentUrl());
    JsonNode sendTime = Json.MAPPER.readTree(api("/api/v1/campaigns/" + id)).path("sendTime");
    assertThat(sendTime.path("mode").asString()).isEqualTo("per-subscriber");
    assertThat(sendTime.path("within").asString()).isEqualTo("PT12H");
    assertThat(sendTime.path("holdout").asDouble()).isEqualTo(0.2);

    browser.get(url("/campaigns/" + id + "/confirm?action=send"));
    browser.findElement(By.cssSelector(".confirm form button")).click();
    await(b -> b.getCurrentUrl().contains("?done=send"));
    browser.get(url("/campaigns/" + id));
    var section =
        await(b -> b.findElements(By.id("sendtime")).stream().findFirst().orElse(null));
    assertThat(section.getText()).isEqualTo("Send time per subscriber");
    screenshot("campaign-sendtime");

    JsonNode planned = Json.MAPPER
        .readTree(api("/api/v1/campaigns/" + id))
        .path("sendTimeFigures")
        .path("planned");
    long recipients = 0;
    Instant first = null;
    Instant last = null;
    for (JsonNode hour : planned) {
      Instant at = Instant.parse(hour.path("at").asString());
      first = first == null || at.isBefore(first) ? at : first;
      last = last == null || at.isAfter(last) ? at : last;
      recipients += hour.path("recipients").asLong();
    }
    assertThat(recipients).as("every member planned once").isEqualTo(members.size());
    assertThat(first).isNotNull();
    assertThat(Duration.between(first, last))
        .as("inside the 12-hour window")
        .isLessThan(Duration.ofHours(12));
  }

  private static void signIn() {
    browser.get(url("/"));
    browser.findElement(By.id("key")).sendKeys(KEY);
    browser.findElement(By.cssSelector("form button[type=submit]")).click();
    await(b -> !b.getCurrentUrl().contains("/signin"));
  }

  private static WebElement field(String id) {
    return browser.findElement(By.id(id));
  }

  private static void replace(WebElement input, String text) {
    input.clear();
    input.sendKeys(text);
  }

  /** Sets a long or special value at once (typing a template key by key is slow). */
  private static void setValue(WebElement input, String value) {
    ((JavascriptExecutor) browser).executeScript("arguments[0].value = arguments[1]", input, value);
  }

  private static <T> T await(Function<WebDriver, T> condition) {
    return new WebDriverWait(browser, WAIT).until(condition);
  }

  private static long idIn(String url) {
    var matcher = Pattern.compile("/campaigns/(\\d+)").matcher(url);
    assertThat(matcher.find()).as(url).isTrue();
    return Long.parseLong(matcher.group(1));
  }

  /** The outbox's emails whose {@code To} is this address, as written. */
  private static List<String> emlsTo(String address) throws IOException {
    Path outbox = node.dataDir().resolve("outbox");
    if (!Files.isDirectory(outbox)) return List.of();
    try (Stream<Path> files = Files.walk(outbox)) {
      List<String> out = new ArrayList<>();
      for (Path file : files.filter(f -> f.toString().endsWith(".eml")).toList()) {
        String eml = Files.readString(file, StandardCharsets.UTF_8);
        if (eml.contains("\nTo: " + address) || eml.contains("<" + address + ">")) out.add(eml);
      }
      return out;
    }
  }

  private static String api(String path) {
    try {
      return http.send(
              HttpRequest.newBuilder(node.uri(path))
                  .header("Authorization", "Bearer " + KEY)
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String url(String path) {
    return node.uri(path).toString();
  }

  private static void screenshot(String name) {
    HeadlessChromium.screenshot(browser, name);
  }
}
