package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.testing.NodeProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
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
 * A person runs a journey from the dashboard, in Debian's headless Chromium against a node on the
 * embedded default: signs in, makes an abandoned-cart journey from its template, meets a problem in
 * the editor beside its field, shortens its waits to seconds and saves it as version 2, previews its
 * reminder as the subscriber, activates it, and watches the journey's page count the entry, the people
 * inside and the reminder sent, without a reload, as add-to-cart events arrive through the API.
 * Screenshots of the list, the new journey, the editor and the journey's page.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JourneyBrowserIT {
  private static final String KEY = "journey-browser-test-key-0123456789";
  private static final Duration WAIT = Duration.ofSeconds(20);
  /** How long a person may take through the journey's waits on a loaded machine. */
  private static final Duration JOURNEY = Duration.ofMinutes(3);

  private static NodeProcess node;
  private static WebDriver browser;
  private static Path profile;
  private static final HttpClient http = HttpClient.newHttpClient();
  private static long journeyId;

  @BeforeAll
  static void start() throws Exception {
    HeadlessChromium.assumeInstalled();
    node = NodeProcess.start(Map.of("TIDINGS_API_KEY", KEY));
    node.awaitHealthy(http, Duration.ofMinutes(3));
    for (String person : List.of("Ann", "Bob"))
      assertThat(
              send("PUT", "/api/v1/subscribers/" + person.toLowerCase(Locale.ROOT), """
          {"email": "%s@example.test", "name": "%s Example", "consent": "subscribed"}""".formatted(
                          person.toLowerCase(Locale.ROOT), person))
                  .statusCode())
          .isIn(200, 201);
    assertThat(send("PUT", "/api/v1/products/boots", """
        {"title": "Velin boots", "brand": "velin", "price": "89.00", "currency": "EUR",
         "imageUrl": "https://img.shop.test/boots.jpg", "landingUrl": "https://shop.test/boots"}""").statusCode()).isIn(200, 201);
    profile = Files.createTempDirectory("tidings-chromium-");
    browser = HeadlessChromium.start(profile);
  }

  @AfterAll
  static void stop() {
    if (browser != null) browser.quit();
    if (node != null) node.close();
  }

  @Test
  @Order(1)
  void a_journey_is_made_from_the_abandoned_cart_template() throws Exception {
    signIn();
    browser.findElement(By.linkText("Journeys")).click();
    await(b -> b.getCurrentUrl().endsWith("/journeys"));
    assertThat(browser.findElement(By.cssSelector("main .empty")).getText())
        .startsWith("No journey yet");
    browser.findElement(By.linkText("New journey")).click();
    await(b -> b.getCurrentUrl().endsWith("/journeys/new"));
    assertThat(browser.findElements(By.cssSelector("ul.choices li"))).hasSize(7);
    browser.findElement(By.partialLinkText("Abandoned cart")).click();
    await(b -> b.findElements(By.id("fromEmail")).size() == 1);
    field("fromEmail").sendKeys("news@shop.example");
    field("fromName").sendKeys("Velin shop");
    screenshot("journey-new");
    browser.findElement(By.id("make-journey")).click();
    await(b -> b.getCurrentUrl().contains("?done=made"));
    journeyId = idIn(browser.getCurrentUrl());

    assertThat(browser.findElement(By.cssSelector("[role=status]")).getText())
        .startsWith("Made as a draft");
    assertThat(browser.findElement(By.cssSelector("h1 .tag")).getText()).isEqualTo("draft");
    assertThat(browser.findElements(By.cssSelector(".flow-steps code")))
        .extracting(WebElement::getText)
        .containsExactly("hour", "reminder", "day", "last-call");
    JsonNode stored = Json.MAPPER.readTree(api("/api/v1/journeys/" + journeyId));
    assertThat(stored.path("state").asString()).isEqualTo("DRAFT");
    long reminder = stored.path("steps").get(1).path("campaignId").asLong();
    assertThat(Json.MAPPER
            .readTree(api("/api/v1/campaigns/" + reminder))
            .path("state")
            .asString())
        .as("its emails are draft campaigns")
        .isEqualTo("DRAFT");
  }

  @Test
  @Order(2)
  void the_editor_shows_a_problem_beside_its_field_and_saves_a_new_version() throws Exception {
    browser.findElement(By.linkText("Edit")).click();
    await(b -> b.getCurrentUrl().endsWith("/journeys/" + journeyId + "/edit"));
    assertThat(field("s1.campaign").isDisplayed()).isTrue();
    assertThat(field("s1.for").isDisplayed())
        .as("a send row shows no wait's fields")
        .isFalse();
    String campaign =
        new Select(field("s1.campaign")).getFirstSelectedOption().getAttribute("value");

    // waits of seconds, no one held out: the journey runs within the test
    replace(field("s0.for"), "3");
    new Select(field("s0.forUnit")).selectByValue("seconds");
    replace(field("s2.for"), "6");
    new Select(field("s2.forUnit")).selectByValue("seconds");
    replace(field("holdOut"), "0");
    screenshot("journey-edit");

    new Select(field("s1.campaign")).selectByValue("");
    replace(field("s2.for"), "soon");
    browser.findElement(By.id("save")).click();
    var problems = await(b -> b.findElements(By.cssSelector(".problems[role=alert]")).stream()
        .findFirst()
        .orElse(null));
    assertThat(problems.getText())
        .contains("Enter the campaign of step 2.")
        .contains("Write the wait of step 3 as a whole number of seconds, minutes, hours or days.");
    assertThat(field("s1.campaign-error").getText()).isEqualTo("Enter the campaign of step 2.");
    assertThat(field("s2.for").getAttribute("aria-invalid")).isEqualTo("true");
    assertThat(field("s0.for").getAttribute("value"))
        .as("what was typed comes back to be fixed")
        .isEqualTo("3");
    screenshot("journey-edit-problem");

    new Select(field("s1.campaign")).selectByValue(campaign);
    replace(field("s2.for"), "6");
    browser.findElement(By.id("save")).click();
    await(b -> b.getCurrentUrl().contains("?done=saved"));
    assertThat(browser.findElement(By.cssSelector("[role=status]")).getText())
        .startsWith("Saved as version 2");
    assertThat(browser.findElement(By.cssSelector("#step-hour .line")).getText())
        .isEqualTo("Waits 3 seconds");
    JsonNode stored = Json.MAPPER.readTree(api("/api/v1/journeys/" + journeyId));
    assertThat(stored.path("version").asInt()).isEqualTo(2);
    assertThat(stored.path("steps").get(0).path("for").asString()).isEqualTo("PT3S");
    assertThat(stored.path("holdOut").asDouble()).isZero();
  }

  @Test
  @Order(3)
  void a_send_steps_email_is_previewed_as_a_subscriber() {
    browser.get(url("/journeys/" + journeyId + "/edit"));
    field("as-reminder").sendKeys("ann@example.test");
    browser.findElement(By.cssSelector("#preview-reminder form button")).click();
    await(b -> b.getCurrentUrl().contains("step=reminder"));
    WebElement frame = browser.findElement(By.cssSelector("#preview-reminder iframe.email-frame"));
    assertThat(frame.getAttribute("src")).contains("/preview/email?subscriber=ann");
    browser.switchTo().frame(frame);
    try {
      await(b -> b.findElement(By.tagName("body")).getText().contains("Hello Ann"));
    } finally {
      browser.switchTo().defaultContent();
    }
  }

  @Test
  @Order(4)
  void activated_its_page_counts_the_people_entering_and_the_reminder_sent_live() throws Exception {
    browser.get(url("/journeys/" + journeyId));
    browser.findElement(By.cssSelector("form[action$='/activate'] button")).click();
    await(b -> b.getCurrentUrl().contains("?done=activated"));
    assertThat(browser.findElement(By.cssSelector("h1 .tag")).getText()).isEqualTo("active");
    assertThat(browser.findElements(By.cssSelector("nav.controls form button")))
        .extracting(WebElement::getText)
        .containsExactly("Pause", "Drain");
    await(b -> b.findElement(By.cssSelector("[data-status]")).getText().contains("updates"));
    assertThat(text("entries")).isEqualTo("0");
    ((JavascriptExecutor) browser).executeScript("window.sameDocument = 'yes'");
    // a node reads the journeys' states at most once a second
    Thread.sleep(1_500);

    assertThat(event("ann", "add_to_cart", "boots")).isEqualTo(202);
    awaitLive("entries", "1");
    assertThat(text("sent")).isEqualTo("0");
    awaitLive("s.reminder.sent", "1");
    assertThat(text("sent")).isEqualTo("1");
    assertThat(event("bob", "add_to_cart", "boots")).isEqualTo(202);
    awaitLive("entries", "2");
    new WebDriverWait(browser, JOURNEY)
        .withMessage(() -> "inside: " + text("inside"))
        .until(b -> !text("inside").equals("0"));
    assertThat(((JavascriptExecutor) browser).executeScript("return window.sameDocument"))
        .as("the figures moved in place, without a reload")
        .isEqualTo("yes");
    screenshot("journey");
    awaitLive("s.last-call.sent", "2");
    awaitLive("exits.COMPLETED", "2");
    assertThat(text("inside")).isEqualTo("0");
  }

  @Test
  @Order(5)
  void the_list_shows_the_journey_with_its_figures() throws Exception {
    // two more, made through the API: one left a draft, one activated and paused
    String from = "{\"from\": {\"email\": \"news@shop.example\"}}";
    assertThat(send("POST", "/api/v1/journey-templates/welcome", from).statusCode())
        .isEqualTo(201);
    var winBack = send("POST", "/api/v1/journey-templates/win_back", from);
    assertThat(winBack.statusCode()).isEqualTo(201);
    long paused = Json.MAPPER.readTree(winBack.body()).path("id").asLong();
    for (String move : List.of("activate", "pause"))
      assertThat(send("POST", "/api/v1/journeys/" + paused + "/" + move, "").statusCode())
          .isEqualTo(200);
    browser.get(url("/journeys"));
    assertThat(browser.findElements(By.cssSelector("table.journeys tbody tr"))).hasSize(3);
    assertThat(browser
            .findElement(By.cssSelector("[data-k='j" + paused + ".state']"))
            .getText())
        .isEqualTo("paused");
    String key = "j" + journeyId + ".";
    await(b ->
        b.findElement(By.cssSelector("[data-k='" + key + "entries']")).getText().equals("2"));
    assertThat(
            browser.findElement(By.cssSelector("[data-k='" + key + "state']")).getText())
        .isEqualTo("active");
    assertThat(browser.findElement(By.cssSelector("[data-k='" + key + "sent']")).getText())
        .as("the reminder and the last call to each of the two")
        .isEqualTo("4");
    assertThat(browser.findElement(By.cssSelector("[data-k='" + key + "lift']")).getText())
        .as("its hold-out was edited to nobody")
        .isEqualTo("0.0% converted · nobody held out yet");
    screenshot("journeys");
  }

  @Test
  @Order(6)
  void the_journeys_page_fits_a_phone() {
    browser.manage().window().setSize(new Dimension(390, 844));
    try {
      browser.get(url("/journeys/" + journeyId));
      screenshot("journey-phone");
      Object overflow = ((JavascriptExecutor) browser)
          .executeScript("return document.documentElement.scrollWidth - window.innerWidth");
      assertThat(((Number) overflow).longValue())
          .as("no sideways scrolling of the page: the drawing scrolls in its own box")
          .isLessThanOrEqualTo(0);
    } finally {
      browser.manage().window().setSize(new Dimension(1280, 900));
    }
  }

  private static void signIn() {
    browser.get(url("/"));
    browser.findElement(By.id("key")).sendKeys(KEY);
    browser.findElement(By.cssSelector("form button[type=submit]")).click();
    await(b -> !b.getCurrentUrl().contains("/signin"));
  }

  private static int event(String person, String type, String item) throws Exception {
    return send("POST", "/api/v1/events", """
        [{"userId": "%s", "type": "%s", "itemId": "%s", "timestamp": "%s"}]""".formatted(person, type, item, Instant.now()))
        .statusCode();
  }

  private static String text(String key) {
    return browser.findElement(By.cssSelector("[data-k='" + key + "']")).getText();
  }

  private static void awaitLive(String key, String value) {
    new WebDriverWait(browser, JOURNEY)
        .withMessage(() -> key + " shows " + text(key) + ", not " + value)
        .until(b -> text(key).equals(value));
  }

  private static WebElement field(String id) {
    return browser.findElement(By.id(id));
  }

  private static void replace(WebElement input, String text) {
    input.clear();
    input.sendKeys(text);
  }

  private static <T> T await(Function<WebDriver, T> condition) {
    return new WebDriverWait(browser, WAIT).until(condition);
  }

  private static long idIn(String url) {
    var matcher = Pattern.compile("/journeys/(\\d+)").matcher(url);
    assertThat(matcher.find()).as(url).isTrue();
    return Long.parseLong(matcher.group(1));
  }

  private static HttpResponse<String> send(String method, String path, String json)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(node.uri(path))
            .header("Authorization", "Bearer " + KEY)
            .header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
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
