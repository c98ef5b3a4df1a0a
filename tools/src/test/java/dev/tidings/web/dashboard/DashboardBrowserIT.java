package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.demo.SentEmail;
import dev.tidings.message.MessageId;
import dev.tidings.testing.NodeProcess;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser: Debian's headless Chromium, driven through its chromedriver,
 * against {@code tidings demo --no-engagement} in a process of its own. Signs in, opens the campaign,
 * posts receipts through the API and fires a real open at the email's URLs, and watches the funnel
 * change on the page without a reload. Screenshots of every page go to {@code target/screenshots}, or
 * to the folder {@code -Dtidings.screenshots} names ({@code docs/screenshots} refreshes the README's), so
 * a test run leaves the checkout as it was.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {
  private static final Path SCREENSHOTS = HeadlessChromium.SCREENSHOTS;
  private static final String KEY = "dashboard-browser-test-key-0123456789";
  private static final String PERSON =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static NodeProcess node;
  private static WebDriver browser;
  private static Path profile;
  private static List<SentEmail> emails;
  private static Instant sentBy;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    HeadlessChromium.assumeInstalled();
    node = NodeProcess.start(
        List.of("demo", "--subscribers", "24", "--products", "60", "--no-engagement"),
        List.of(),
        Map.of("TIDINGS_API_KEY", KEY));
    node.awaitHealthy(http, Duration.ofMinutes(3));
    emails = awaitSent();

    profile = Files.createTempDirectory("tidings-chromium-");
    browser = HeadlessChromium.start(profile);
  }

  @AfterAll
  static void stop() throws IOException {
    if (browser != null) browser.quit();
    if (node != null) node.close();
  }

  @Test
  @Order(1)
  void a_page_sends_a_stranger_to_sign_in_and_a_wrong_key_is_refused() {
    browser.get(url("/"));
    assertThat(browser.getCurrentUrl()).contains("/signin");
    browser.findElement(By.id("key")).sendKeys("not-the-key-at-all-000000");
    browser.findElement(By.cssSelector("form button[type=submit]")).click();
    // the click posts the form; wait for the answer's page, not the page the click was made on
    var alert = new WebDriverWait(browser, WAIT)
        .until(b ->
            b.findElements(By.cssSelector("[role=alert]")).stream().findFirst().orElse(null));
    assertThat(alert.getText()).contains("not this node's API key");
    screenshot("signin");
  }

  @Test
  @Order(2)
  void the_key_signs_in_with_an_http_only_cookie_and_shows_the_campaigns() {
    browser.findElement(By.id("key")).sendKeys(KEY);
    browser.findElement(By.cssSelector("form button[type=submit]")).click();
    new WebDriverWait(browser, WAIT).until(b -> !b.getCurrentUrl().contains("/signin"));

    var cookie = browser.manage().getCookieNamed("tidings_session");
    assertThat(cookie).isNotNull();
    assertThat(cookie.isHttpOnly()).isTrue();
    assertThat(cookie.getSameSite()).isEqualTo("Strict");
    // the page's script writes the viewer's time zone in a cookie of its own (no secret); the
    // session is the one a script must never see
    assertThat((String) ((JavascriptExecutor) browser).executeScript("return document.cookie"))
        .as("no script can read the session")
        .doesNotContain("tidings_session")
        .doesNotContain(cookie.getValue());
    assertThat(browser.findElement(By.cssSelector("table.campaigns")).getText())
        .contains("Tidings demo: picks for you")
        .contains("completed");
  }

  @Test
  @Order(3)
  void the_funnel_moves_live_as_receipts_arrive_without_a_reload() throws Exception {
    browser.findElement(By.linkText("Tidings demo: picks for you")).click();
    new WebDriverWait(browser, WAIT)
        .until(b -> b.findElement(By.cssSelector("[data-status]")).getText().contains("updates"));
    assertThat(text("funnel.sent")).isEqualTo(Integer.toString(emails.size()));
    assertThat(text("funnel.opened")).isEqualTo("0");
    ((JavascriptExecutor) browser).executeScript("window.sameDocument = 'yes'");

    // a provider reports deliveries, two people open, one clicks, one address bounces
    var receipts = new ArrayList<String>();
    for (int i = 1; i < emails.size(); i++) receipts.add(receipt(emails.get(i), "delivered"));
    receipts.add(receipt(emails.get(1), "opened"));
    receipts.add(receipt(emails.get(2), "clicked"));
    receipts.add(receipt(emails.get(0), "bounced"));
    var posted = http.send(
        HttpRequest.newBuilder(node.uri("/api/v1/delivery-events"))
            .header("Authorization", "Bearer " + KEY)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("[" + String.join(",", receipts) + "]"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);

    awaitText("funnel.opened", "2");
    assertThat(text("funnel.clicked")).isEqualTo("1");
    awaitText("funnel.bounced", "1");
    awaitText("funnel.delivered", Integer.toString(emails.size() - 1));

    // and a real open: the email's pixel and slot images, fetched as a mail client does
    long humanBefore = Long.parseLong(text("opens.human"));
    SentEmail read = emails.get(3);
    var paths = new ArrayList<String>(List.of("/p/" + read.token()));
    for (int slot = 0; slot < read.slots(); slot++) paths.add("/o/" + read.token() + "/" + slot);
    for (String path : paths) {
      var answer = http.send(
          HttpRequest.newBuilder(node.uri(path)).header("User-Agent", PERSON).build(),
          HttpResponse.BodyHandlers.discarding());
      assertThat(answer.statusCode())
          .as("email-facing %s needs no sign-in", path)
          .isEqualTo(200);
    }
    awaitText("funnel.opened", "3");
    awaitText("opens.human", Long.toString(humanBefore + 1));
    assertThat(((JavascriptExecutor) browser).executeScript("return window.sameDocument"))
        .as("the page was updated in place, not reloaded")
        .isEqualTo("yes");
  }

  @Test
  @Order(4)
  void people_clicking_slots_show_in_the_slot_chart_and_the_top_products() throws Exception {
    // a click sooner than 10 s after the send is a link scanner's; people come later
    long early = Duration.between(Instant.now(), sentBy.plusSeconds(11)).toMillis();
    if (early > 0) Thread.sleep(early);
    long clickedBefore = Long.parseLong(text("funnel.clicked"));
    int clicks = 0;
    for (int i = 4; i < Math.min(emails.size(), 10); i++, clicks++) {
      SentEmail email = emails.get(i);
      fetch("/p/" + email.token());
      for (int slot = 0; slot < email.slots(); slot++) fetch("/o/" + email.token() + "/" + slot);
      var click = http.send(
          HttpRequest.newBuilder(node.uri("/c/" + email.token() + "/" + (i % 3 == 0 ? 1 : 0)))
              .header("User-Agent", PERSON)
              .build(),
          HttpResponse.BodyHandlers.discarding());
      assertThat(click.statusCode()).as("a slot link redirects to the product").isEqualTo(302);
    }
    awaitText("funnel.clicked", Long.toString(clickedBefore + clicks));
    new WebDriverWait(browser, WAIT)
        .withMessage(
            () -> "slot 1 shows " + text("slot.0") + ", top product " + text("top.0.title"))
        .until(b -> !text("slot.0").equals("0") && !text("top.0.title").equals("–"));
    assertThat(Long.parseLong(text("slot.0")) + Long.parseLong(text("slot.1"))).isEqualTo(clicks);
    assertThat(Long.parseLong(text("top.0.clicks"))).isPositive();

    browser.navigate().refresh();
    new WebDriverWait(browser, WAIT)
        .until(b -> b.findElements(By.cssSelector("#preview ~ .email .product")).size() > 0
            && b.findElement(By.cssSelector("[data-status]")).getText().contains("updates"));
    // the demo campaign tests two subject lines: every email sent is one variant's
    var rows =
        browser.findElements(By.cssSelector("section[aria-labelledby='experiment'] tbody tr"));
    assertThat(rows)
        .extracting(row -> row.findElement(By.cssSelector("th")).getText())
        .containsExactly("Six picks", "Picks waiting");
    long inTest = rows.stream()
        .mapToLong(row -> Long.parseLong(
            row.findElements(By.cssSelector("td")).getFirst().getText().replace(",", "")))
        .sum();
    assertThat(inTest).isEqualTo(emails.size());
    screenshot("campaign");
  }

  @Test
  @Order(5)
  void the_campaigns_list_shows_each_campaigns_headline() {
    browser.get(url("/"));
    var row = browser.findElement(
        By.xpath("//table[contains(@class, 'campaigns')]//tr[.//*[@data-k='c1.delivered']]"));
    new WebDriverWait(browser, WAIT)
        .until(b -> row.findElement(By.cssSelector("[data-k='c1.delivered']"))
            .getText()
            .equals(Integer.toString(emails.size() - 1)));
    assertThat(row.getText()).contains("Tidings demo: picks for you").contains("completed");
    screenshot("campaigns");
  }

  @Test
  @Order(6)
  void the_explorer_shows_what_a_subscribers_emails_showed() {
    String subscriber = MessageId.parse(emails.get(3).messageId()).orElseThrow().subscriberId();
    browser.get(url("/explorer"));
    browser.findElement(By.id("subscriber")).sendKeys(subscriber);
    browser.findElement(By.cssSelector("form.pick button")).click();
    new WebDriverWait(browser, WAIT).until(b -> b.getCurrentUrl().contains("subscriber="));
    assertThat(browser.findElements(By.cssSelector("#shown ~ ol.cards .product")))
        .hasSize(emails.get(3).slots());
    assertThat(browser.findElement(By.id("recs")).findElement(By.xpath("..")).getText())
        .as("a recommendations table, or the words for none yet")
        .containsAnyOf("Put there by", "No recommendations yet", "not available");
    screenshot("explorer");
  }

  @Test
  @Order(7)
  void the_system_page_shows_the_dependencies_queues_counting_and_nodes() {
    browser.get(url("/system"));
    String page = browser.findElement(By.tagName("main")).getText();
    assertThat(page)
        .contains("postgresql")
        .contains("up")
        .contains("Work queues")
        .contains("delivery")
        .contains("activity events wait to be counted");
    assertThat(browser.findElements(By.cssSelector("#queues ~ table thead th")))
        .extracting(WebElement::getText)
        .containsExactly("Queue", "Waiting", "Oldest message", "Dead letters");
    assertThat(browser.findElements(By.cssSelector("#nodes ~ table tbody tr")))
        .singleElement()
        .extracting(WebElement::getText)
        .asString()
        .contains("this node", "demo", "running");
    screenshot("system");

    browser
        .findElement(By.cssSelector("#queues ~ table tbody tr td:last-child a"))
        .click();
    new WebDriverWait(browser, WAIT)
        .until(b -> b.getCurrentUrl().contains("/system/dead-letters/"));
    assertThat(browser.findElement(By.tagName("h1")).getText()).startsWith("Dead letters of");
    screenshot("dead-letters");
  }

  @Test
  @Order(8)
  void the_demo_digest_shows_how_many_digests_went_out_and_what_they_told() throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (!api("/api/v1/campaigns/2").contains("\"COMPLETED\"")) {
      assertThat(System.nanoTime()).as("the demo digest completes").isLessThan(deadline);
      Thread.sleep(500);
    }
    var digests = Json.MAPPER.readTree(api("/api/v1/campaigns/2/digests"));
    assertThat(digests.path("digests").asLong()).isPositive();
    browser.get(url("/campaigns/2"));
    var section = browser.findElement(By.cssSelector("section[aria-labelledby='digests']"));
    assertThat(section.getText())
        .contains("Digests sent\n" + digests.path("digests").asLong())
        .contains("New season: ")
        .contains(digests.path("latest").path(0).path("userId").asString());
    screenshot("digest");
  }

  private static String api(String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(node.uri(path))
                .header("Authorization", "Bearer " + KEY)
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  @Order(9)
  void a_phone_gets_the_campaign_in_one_column() throws IOException {
    browser.manage().window().setSize(new Dimension(390, 844));
    browser.get(url("/campaigns/1"));
    new WebDriverWait(browser, WAIT)
        .until(b -> b.findElement(By.cssSelector("[data-status]")).getText().contains("updates"));
    Object overflow = ((JavascriptExecutor) browser)
        .executeScript("return document.documentElement.scrollWidth - window.innerWidth");
    assertThat(((Number) overflow).longValue()).as("no sideways scrolling").isLessThanOrEqualTo(0);
    // a phone shows one screen at a time: so does this screenshot
    byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(SCREENSHOTS.resolve("campaign-phone.png"), png);
    browser.manage().window().setSize(new Dimension(1280, 900));
  }

  @Test
  @Order(10)
  void signing_out_ends_the_session_and_streams_need_it() throws Exception {
    browser.get(url("/"));
    browser.findElement(By.cssSelector("form[action='/signout'] button")).click();
    new WebDriverWait(browser, WAIT).until(b -> b.getCurrentUrl().contains("/signin"));
    browser.get(url("/system"));
    assertThat(browser.getCurrentUrl()).contains("/signin");
    var stream = http.send(
        HttpRequest.newBuilder(node.uri("/live/campaigns/1")).build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(stream.statusCode()).isEqualTo(401);
  }

  private static void fetch(String path) throws Exception {
    var answer = http.send(
        HttpRequest.newBuilder(node.uri(path)).header("User-Agent", PERSON).build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(answer.statusCode()).as(path).isEqualTo(200);
  }

  private static String receipt(SentEmail email, String status) {
    return "{\"messageId\":\"" + email.messageId() + "\",\"status\":\"" + status
        + "\",\"timestamp\":\"" + Instant.now() + "\",\"userAgent\":\"" + PERSON + "\"}";
  }

  private static String text(String key) {
    return browser.findElement(By.cssSelector("[data-k='" + key + "']")).getText();
  }

  private static void awaitText(String key, String expected) {
    new WebDriverWait(browser, WAIT)
        .withMessage(() -> key + " never showed " + expected + " (shows " + text(key) + ")")
        .until(b -> text(key).equals(expected));
  }

  private static String url(String path) {
    return node.uri(path).toString();
  }

  private static void screenshot(String name) {
    HeadlessChromium.screenshot(browser, name);
  }

  /** The demo sends its campaign to the outbox once it is up: waits until the run completed. */
  private static List<SentEmail> awaitSent() throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      var campaign = http.send(
          HttpRequest.newBuilder(node.uri("/api/v1/campaigns/1"))
              .header("Authorization", "Bearer " + KEY)
              .build(),
          HttpResponse.BodyHandlers.ofString());
      if (campaign.statusCode() == 200 && campaign.body().contains("\"COMPLETED\"")) {
        // the demo's digest (campaign 2) may be writing to the outbox too: only campaign 1's count
        var sent = SentEmail.readOutbox(node.dataDir().resolve("outbox")).stream()
            .filter(email -> MessageId.parse(email.messageId())
                .map(id -> id.campaignId() == 1)
                .orElse(false))
            .toList();
        assertThat(sent).hasSizeGreaterThan(4);
        sentBy = Instant.now();
        return sent;
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("the demo campaign did not complete:\n" + node.log());
  }
}
