package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.app.CampaignWiring;
import dev.tidings.app.Node;
import dev.tidings.app.Role;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.CampaignState;
import dev.tidings.campaign.UnwiredSends;
import dev.tidings.config.Secret;
import dev.tidings.config.SettingsLoader;
import dev.tidings.testing.RealServers;
import dev.tidings.web.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.FormElement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The campaign editor's pages on a whole node (every capability, real PostgreSQL), driven over HTTP
 * as a browser drives them: signed in, each form posted back with the fields its page gave and the
 * session's token. What the pages did is read back through the campaign capability's own service.
 */
class CampaignEditorPagesIT {
  private static final String KEY = "editor-pages-api-key-0123456789";
  private static final String SECRET = "editor-pages-secret-0123456789";
  private static final int TESTS_PER_MINUTE = 3;
  private static final String FROM = "news@shop.example";
  private static final String HTML = "<html><body><p>Hello {{subscriber.name}}</p>"
      + "<p><a href=\"{{unsubscribeUrl}}\">Unsubscribe</a></p></body></html>";

  private static String databaseName;
  private static Node node;
  private static URI base;
  private static CampaignService campaigns;
  private static Path outbox;
  private static String cookie;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  @BeforeAll
  static void start() throws Exception {
    databaseName = "tidings_editor_" + UUID.randomUUID().toString().substring(0, 8);
    String url = RealServers.createDatabase(databaseName);
    Path dataDir = Files.createTempDirectory("tidings-editor-pages");
    node = Node.of(SettingsLoader.load(Map.of(
        "TIDINGS_DB_URL", url,
        "TIDINGS_DATA_DIR", dataDir.toString(),
        "TIDINGS_SECRET", SECRET,
        "TIDINGS_API_KEY", KEY,
        "TIDINGS_TEST_SENDS_PER_MINUTE", Integer.toString(TESTS_PER_MINUTE))));
    // serve: the pages and a send pipeline that queues runs, with no worker to take them
    node.start(Role.SERVE, 0);
    base = URI.create("http://127.0.0.1:" + node.port());
    campaigns = node.capability(CampaignWiring.class).campaigns();
    outbox = node.settings().outboxDir();
    var subscribers = new SubscriberService(
        node.infrastructure().database().jdbi(), node.infrastructure().clock());
    for (String[] s :
        new String[][] {{"ep-gb-1", "GB"}, {"ep-gb-2", "GB"}, {"ep-de", "DE"}, {"ep-ie", "IE"}})
      subscribers.put(new Subscriber(
          s[0],
          s[0] + "@example.com",
          Optional.of("Reader " + s[0]),
          Locale.ENGLISH,
          ZoneId.of("UTC"),
          Optional.of(new Location(Optional.empty(), Optional.empty(), Optional.of(s[1]))),
          Consent.SUBSCRIBED));
    cookie = signIn();
  }

  @AfterAll
  static void stop() throws Exception {
    if (node != null) node.close();
    RealServers.dropDatabase(databaseName);
  }

  @Test
  void a_campaign_made_from_a_template_holds_what_the_template_gave() throws Exception {
    double createdBefore = actions("create");
    var page = get("/campaigns/new?template=open-time-picks");
    assertThat(page.statusCode()).isEqualTo(200);
    var form = editorForm(page.body());
    form.put("fromEmail", FROM);
    form.put("intent", "save");

    var saved = post("/campaigns/new", form);

    assertThat(saved.statusCode()).as(saved.body()).isEqualTo(303);
    String location = saved.headers().firstValue("Location").orElseThrow();
    Matcher created = Pattern.compile("^/campaigns/(\\d+)\\?done=created$").matcher(location);
    assertThat(created.matches()).as(location).isTrue();
    var template =
        node.capability(CampaignWiring.class).templates().get("open-time-picks").orElseThrow();
    var definition = stored(Long.parseLong(created.group(1))).definition();
    assertThat(definition.subject()).isEqualTo(template.subject());
    assertThat(definition.html()).isEqualTo(template.html());
    assertThat(definition.text()).isEqualTo(template.text());
    assertThat(definition.slots()).isEqualTo(template.slots()).isPositive();
    assertThat(definition.from().email()).isEqualTo(FROM);
    assertThat(get(location).body()).contains("Saved as a draft");
    assertThat(actions("create")).isEqualTo(createdBefore + 1);
  }

  /** The count of one action done from the dashboard, as the node's metrics show it. */
  private static double actions(String action) {
    var counter = node.infrastructure()
        .metrics()
        .find("tidings_dashboard_campaign_actions")
        .tag("action", action)
        .counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void enter_in_a_field_saves_the_draft_and_adds_no_block() throws Exception {
    var page = get("/campaigns/new").body();
    var form = draftForm("Saved by Enter", Map.of());
    form.remove("intent");
    // a browser submits a form on Enter with its first submit button
    var first = Jsoup.parse(page).selectFirst("form.editor button[type=submit]");
    assertThat(first).isNotNull();
    form.put(first.attr("name"), first.val());

    var saved = post("/campaigns/new", form);

    assertThat(saved.statusCode()).as(saved.body()).isEqualTo(303);
    long id = Long.parseLong(saved
        .headers()
        .firstValue("Location")
        .orElseThrow()
        .replaceAll("^/campaigns/(\\d+)\\?done=created$", "$1"));
    assertThat(stored(id).definition().html()).isEqualTo(HTML);
  }

  @Test
  void a_form_without_this_sessions_token_or_from_another_site_changes_nothing() throws Exception {
    var form = draftForm("Guarded", Map.of());
    int before = campaignCount();

    form.remove("_csrf");
    assertThat(post("/campaigns/new", form).statusCode()).as("no token").isEqualTo(403);

    String otherSession = signIn();
    form.put("_csrf", token(get("/campaigns/new", otherSession).body()));
    assertThat(post("/campaigns/new", form).statusCode())
        .as("another session's token")
        .isEqualTo(403);

    form.put("_csrf", token(get("/campaigns/new").body()));
    assertThat(post("/campaigns/new", form, Optional.of("https://evil.example"), cookie)
            .statusCode())
        .as("this session's token, posted from another site")
        .isEqualTo(403);

    assertThat(campaignCount()).isEqualTo(before);
    assertThat(post("/campaigns/new", form).statusCode())
        .as("the same form, as this site posts it")
        .isEqualTo(303);
    assertThat(campaignCount()).isEqualTo(before + 1);
  }

  @Test
  void an_unsafe_template_comes_back_as_typed_with_its_line_named_and_nothing_stored()
      throws Exception {
    int before = campaignCount();
    String script = "<html><body>\n<p>Hello</p>\n<script>alert(1)</script>\n</body></html>";

    var refused = post("/campaigns/new", draftForm("Unsafe script", Map.of("html", script)));

    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(problems(refused.body())).anySatisfy(p -> assertThat(p).contains("line 3"));
    var again = editorForm(refused.body());
    assertThat(again.get("html")).isEqualTo(script);
    assertThat(again.get("name")).isEqualTo("Unsafe script");
    assertThat(again.get("fromEmail")).isEqualTo(FROM);

    String link = "<html><body>\n<p><a href=\"javascript:alert(1)\">Go</a></p>\n</body></html>";
    var refusedLink = post("/campaigns/new", draftForm("Unsafe link", Map.of("html", link)));
    assertThat(refusedLink.statusCode()).isEqualTo(422);
    assertThat(problems(refusedLink.body())).anySatisfy(p -> assertThat(p).contains("line 2"));
    assertThat(editorForm(refusedLink.body()).get("html")).isEqualTo(link);

    assertThat(campaignCount()).isEqualTo(before);
  }

  @Test
  void counting_the_audience_agrees_with_the_service_and_stores_nothing() throws Exception {
    long expected = campaigns.countAudience(CampaignJson.audienceFromJson(Json.MAPPER.readTree(
        "{\"type\":\"segment\",\"conditions\":[{\"type\":\"field\",\"field\":\"country\","
            + "\"values\":[\"GB\"]}]}")));
    assertThat(expected).isEqualTo(2);
    int before = campaignCount();

    var counted = post(
        "/campaigns/new",
        draftForm("Counted", Map.of("c0.type", "country", "c0.value", "GB", "intent", "count")));

    assertThat(counted.statusCode()).isEqualTo(200);
    assertThat(Jsoup.parse(counted.body()).select("output#count").text())
        .isEqualTo(expected + " subscribers would get it now");
    assertThat(campaignCount()).isEqualTo(before);

    String csrf = token(get("/campaigns/new").body());
    var live = post(
        "/campaigns/audience-count", Map.of("_csrf", csrf, "c0.type", "country", "c0.value", "GB"));
    assertThat(live.statusCode()).isEqualTo(200);
    assertThat(live.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(Json.MAPPER.readTree(live.body()).path("text").asString())
        .isEqualTo(expected + " subscribers would get it now");

    var bad = post(
        "/campaigns/audience-count",
        Map.of("_csrf", csrf, "c0.type", "clicked", "c0.value", "soon"));
    assertThat(bad.statusCode()).isEqualTo(422);
    var answer = Json.MAPPER.readTree(bad.body());
    assertThat(answer.has("text")).isFalse();
    assertThat(answer.path("problems").isArray()).isTrue();
    assertThat(answer.path("problems").get(0).asString())
        .as("in the form's words, not the API's")
        .isEqualTo("Write the value of condition 1 as days, e.g. 30.");
    assertThat(campaignCount()).isEqualTo(before);
  }

  @Test
  void a_condition_naming_no_campaign_is_shown_beside_its_row_and_nothing_is_stored_or_counted()
      throws Exception {
    int before = campaignCount();
    var form = new HashMap<>(draftForm(
        "Lapsed readers",
        Map.of(
            "c0.type",
            "country",
            "c0.value",
            "GB",
            "c1.type",
            "notOpened",
            "c1.value",
            "999999999")));
    var refused = post("/campaigns/new", form);

    assertThat(refused.statusCode()).isEqualTo(422);
    var page = Jsoup.parse(refused.body());
    assertThat(page.select("#c1-error").text())
        .isEqualTo("The value of condition 2 names nothing Tidings knows (campaign id).");
    assertThat(page.select("#c0-error")).isEmpty();
    assertThat(page.select("[id=c1.value]").attr("aria-invalid")).isEqualTo("true");
    assertThat(campaignCount()).isEqualTo(before);

    form.put("intent", "count");
    var counted = post("/campaigns/new", form);
    assertThat(counted.statusCode()).isEqualTo(422);
    assertThat(Jsoup.parse(counted.body()).select("output#count").text()).isEmpty();
    assertThat(Jsoup.parse(counted.body()).select("#c1-error").text())
        .isEqualTo("The value of condition 2 names nothing Tidings knows (campaign id).");

    String csrf = token(get("/campaigns/new").body());
    var live = post(
        "/campaigns/audience-count",
        Map.of("_csrf", csrf, "c0.type", "notOpened", "c0.value", "999999999"));
    assertThat(live.statusCode()).isEqualTo(422);
    assertThat(Json.MAPPER.readTree(live.body()).path("problems").get(0).asString())
        .isEqualTo("The value of condition 1 names nothing Tidings knows (campaign id).");
  }

  @Test
  void a_draft_is_edited_and_a_running_campaign_is_not() throws Exception {
    long id = createDraft("Editable", Map.of());
    var form = editorForm(get("/campaigns/" + id + "/edit").body());
    form.put("subject", "A better subject");
    form.put("intent", "save");

    var saved = post("/campaigns/" + id + "/edit", form);

    assertThat(saved.statusCode()).as(saved.body()).isEqualTo(303);
    assertThat(saved.headers().firstValue("Location"))
        .hasValue("/campaigns/" + id + "/edit?done=saved");
    assertThat(stored(id).definition().subject()).isEqualTo("A better subject");

    var confirm = get("/campaigns/" + id + "/confirm?action=send");
    assertThat(confirm.statusCode()).isEqualTo(200);
    long everyone = campaigns.countAudience(CampaignJson.audienceFromJson(null));
    assertThat(confirm.body()).contains("It goes to " + everyone + " subscribers now.");
    var sent = post("/campaigns/" + id + "/send", Map.of("_csrf", token(confirm.body())));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(303);
    assertThat(campaigns.view(id).orElseThrow().state()).isEqualTo(CampaignState.RUNNING);

    assertThat(get("/campaigns/" + id + "/edit").statusCode()).isEqualTo(409);
    form.put("subject", "Too late");
    var late = post("/campaigns/" + id + "/edit", form);
    assertThat(late.statusCode()).isEqualTo(409);
    assertThat(late.body()).contains("running");
    assertThat(stored(id).definition().subject()).isEqualTo("A better subject");
  }

  @Test
  void a_draft_is_scheduled_after_its_confirmation_then_cancelled() throws Exception {
    long id = createDraft("Scheduled", Map.of("c0.type", "country", "c0.value", "GB"));
    Instant at = Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES);
    String typed = LocalDateTime.ofInstant(at, ZoneOffset.UTC).toString();

    var confirm = get("/campaigns/" + id + "/confirm?action=schedule&at=" + encode(typed));

    assertThat(confirm.statusCode()).isEqualTo(200);
    assertThat(confirm.body()).contains("goes to 2 subscribers");
    var confirmForm = form(confirm.body(), "form[action=/campaigns/" + id + "/schedule]");
    assertThat(confirmForm.get("at")).isEqualTo(at.toString());
    var scheduled = post("/campaigns/" + id + "/schedule", confirmForm);
    assertThat(scheduled.statusCode()).as(scheduled.body()).isEqualTo(303);
    var view = campaigns.view(id).orElseThrow();
    assertThat(view.state()).isEqualTo(CampaignState.SCHEDULED);
    assertThat(view.campaign().definition().scheduledAt()).hasValue(at);

    String csrf = confirmForm.get("_csrf");
    String past = Instant.now().minus(1, ChronoUnit.HOURS).toString();
    assertThat(post("/campaigns/" + id + "/schedule", Map.of("_csrf", csrf, "at", past))
            .statusCode())
        .isEqualTo(422);
    assertThat(get("/campaigns/" + id + "/confirm?action=schedule&at=" + encode(past))
            .statusCode())
        .isEqualTo(422);
    String farOff = "+999999-01-01T00:00:00Z";
    assertThat(post("/campaigns/" + id + "/schedule", Map.of("_csrf", csrf, "at", farOff))
            .statusCode())
        .as("a year past what can be stored")
        .isEqualTo(422);
    assertThat(get("/campaigns/" + id + "/confirm?action=schedule&at=" + encode(farOff))
            .statusCode())
        .isEqualTo(422);
    assertThat(stored(id).definition().scheduledAt())
        .as("the refused times changed nothing")
        .hasValue(at);

    assertThat(get("/campaigns/" + id + "/confirm?action=cancel").statusCode()).isEqualTo(200);
    var cancelled = post("/campaigns/" + id + "/cancel", Map.of("_csrf", csrf));
    assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(303);
    assertThat(campaigns.view(id).orElseThrow().state()).isEqualTo(CampaignState.CANCELLED);
    assertThat(get("/campaigns/" + id + "/edit").statusCode())
        .as("a cancelled campaign is not edited")
        .isEqualTo(409);
  }

  @Test
  void a_draft_is_checked_and_scheduled_from_its_page_in_the_persons_zone() throws Exception {
    long id = createDraft("Zoned", Map.of("c0.type", "country", "c0.value", "GB"));
    String paris = cookie + "; " + ViewerZone.COOKIE + "=Europe%2FParis";
    var page = get("/campaigns/" + id, paris);
    assertThat(page.statusCode()).isEqualTo(200);
    var links = Jsoup.parse(page.body()).select("nav.controls a").eachAttr("href");
    assertThat(links)
        .containsExactly(
            "/campaigns/" + id + "/edit",
            "/campaigns/" + id + "/preview",
            "/campaigns/" + id + "/confirm?action=send",
            "/campaigns/" + id + "/confirm?action=delete");
    for (String link : links)
      assertThat(get(link, paris).statusCode())
          .as("each action's page opens: " + link)
          .isEqualTo(200);
    var scheduleForm = form(page.body(), "form.schedule");
    assertThat(scheduleForm.get("zone")).isEqualTo("Europe/Paris");

    var tested = post(
        "/campaigns/" + id + "/test",
        Map.of("_csrf", token(page.body()), "to", "me@example.com", "back", "campaign"));
    assertThat(tested.headers().firstValue("Location"))
        .as("a test asked for on the campaign's page comes back to it")
        .hasValue("/campaigns/" + id + "?done=tested");

    ZoneId zone = ZoneId.of("Europe/Paris");
    LocalDateTime local = LocalDateTime.ofInstant(
        Instant.now().plus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES), zone);
    var unknown = get(
        "/campaigns/" + id + "/confirm?action=schedule&zone=Mars%2FOlympus&at="
            + encode(local.toString()),
        paris);
    assertThat(unknown.statusCode()).isEqualTo(422);
    assertThat(unknown.body()).contains("is not a time zone we know");

    var confirm = get(
        "/campaigns/" + id + "/confirm?action=schedule&zone=Europe%2FParis&at="
            + encode(local.toString()),
        paris);
    assertThat(confirm.statusCode()).as(confirm.body()).isEqualTo(200);
    assertThat(confirm.body())
        .contains(String.format(
            Locale.ROOT, "%02d:%02d Europe/Paris", local.getHour(), local.getMinute()));
    var confirmForm = form(confirm.body(), "form[action=/campaigns/" + id + "/schedule]");
    var scheduled = post("/campaigns/" + id + "/schedule", confirmForm);
    assertThat(scheduled.statusCode()).as(scheduled.body()).isEqualTo(303);
    assertThat(scheduled.headers().firstValue("Set-Cookie").orElseThrow())
        .startsWith(ViewerZone.COOKIE + "=Europe%2FParis;");
    assertThat(stored(id).definition().scheduledAt())
        .as("stored as the instant the Paris time is")
        .hasValue(local.atZone(zone).toInstant());
    var shown = Jsoup.parse(get("/campaigns/" + id, paris).body());
    assertThat(shown.select(".starts").text()).contains("Europe/Paris");
    assertThat(shown.select("nav.controls a").eachText()).contains("Unschedule…");
    assertThat(Jsoup.parse(get("/", paris).body()).select(".when").eachText())
        .anyMatch(text -> text.endsWith("Europe/Paris"));
  }

  @Test
  void a_draft_is_deleted_and_a_deleted_one_is_not_found() throws Exception {
    long id = createDraft("Deleted", Map.of());
    String csrf = token(get("/campaigns/" + id + "/confirm?action=delete").body());

    var deleted = post("/campaigns/" + id + "/delete", Map.of("_csrf", csrf));

    assertThat(deleted.statusCode()).isEqualTo(303);
    assertThat(deleted.headers().firstValue("Location")).hasValue("/?done=deleted");
    assertThat(campaigns.get(id)).isEmpty();
    assertThat(post("/campaigns/" + id + "/delete", Map.of("_csrf", csrf)).statusCode())
        .isEqualTo(404);
  }

  @Test
  void send_now_on_a_node_without_a_send_pipeline_is_a_page_that_says_so() throws Exception {
    long id = createDraft("Unsendable", Map.of());
    var server = unwiredDashboard();
    try {
      String at = "http://127.0.0.1:" + server.port() + "/campaigns/" + id;
      var confirm = get(at + "/confirm?action=send");
      assertThat(confirm.statusCode()).isEqualTo(200);

      var refused = post(at + "/send", Map.of("_csrf", token(confirm.body())));

      assertThat(refused.statusCode()).isEqualTo(503);
      assertThat(Jsoup.parse(refused.body()).select("[role=alert]").text())
          .contains("no send pipeline");
      assertThat(campaigns.view(id).orElseThrow().state()).isEqualTo(CampaignState.DRAFT);
    } finally {
      server.close();
    }
  }

  /**
   * The dashboard with the editor on the node's database, but a campaign service with no send
   * pipeline, as a program built on the engine may wire it; only what the controls read is given.
   */
  @SuppressWarnings("NullAway") // the pages that read the missing sources are not opened
  private static HttpServer unwiredDashboard() {
    var jdbi = node.infrastructure().database().jdbi();
    InstantSource clock = node.infrastructure().clock();
    var unwired = new CampaignService(
        jdbi, new UnwiredSends(), new AudienceQuery(jdbi, clock), clock, new SimpleMeterRegistry());
    var subscribers = new SubscriberService(jdbi, clock);
    var editor = new CampaignEditorSources(unwired, subscribers, null, null, null, clock);
    var sources = new DashboardSources(
        unwired,
        null,
        null,
        null,
        null,
        null,
        null,
        subscribers,
        null,
        List.of(),
        null,
        List.of(),
        () -> new DashboardSources.Counting(0, Duration.ZERO),
        List::of,
        new Secret(KEY),
        clock,
        false);
    var metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    return HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        metrics,
        List.of(),
        List.of(new DashboardRoutes(
            sources,
            Optional.of(editor),
            new SessionSignOuts(jdbi, clock),
            Optional.empty(),
            metrics,
            Optional.empty())));
  }

  @Test
  void the_preview_says_who_would_get_it_and_frames_the_html_in_a_sandbox() throws Exception {
    long id = createDraft("Previewed", Map.of("c0.type", "country", "c0.value", "GB"));

    var in = get("/campaigns/" + id + "/preview?subscriber=ep-gb-1");
    assertThat(in.statusCode()).isEqualTo(200);
    assertThat(verdict(in.body())).isEqualTo("Would get it.");

    var out = get("/campaigns/" + id + "/preview?subscriber=" + encode("ep-de@example.com"));
    assertThat(out.statusCode()).isEqualTo(200);
    assertThat(verdict(out.body()))
        .startsWith("Would not get it:")
        .contains("not in the campaign's audience");

    var frame = get("/campaigns/" + id + "/preview/email?subscriber=ep-gb-1");
    assertThat(frame.statusCode()).isEqualTo(200);
    assertThat(frame.headers().firstValue("Content-Security-Policy").orElseThrow())
        .contains("sandbox");
    assertThat(frame.body()).contains("Hello Reader ep-gb-1");

    var unknown = get("/campaigns/" + id + "/preview?subscriber=nobody-here");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).contains("nobody-here");
  }

  @Test
  void a_test_send_mails_one_marked_email_and_is_limited_per_minute() throws Exception {
    long id = createDraft("Tested", Map.of("subject", "Picks of the week"));
    String csrf = token(get("/campaigns/" + id + "/edit").body());
    var before = outboxFiles();

    var sent =
        post("/campaigns/" + id + "/test", Map.of("_csrf", csrf, "to", "someone@example.com"));

    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(303);
    assertThat(sent.headers().firstValue("Location"))
        .hasValue("/campaigns/" + id + "/edit?done=tested");
    var mailed = outboxFiles().stream().filter(file -> !before.contains(file)).toList();
    assertThat(mailed).hasSize(1);
    String eml = Files.readString(mailed.getFirst(), StandardCharsets.UTF_8);
    assertThat(eml)
        .contains("To: someone@example.com")
        .contains("Subject: [Test] Picks of the week");

    var wrong = post("/campaigns/" + id + "/test", Map.of("_csrf", csrf, "to", "not-an-address"));
    assertThat(wrong.statusCode()).isEqualTo(422);
    assertThat(wrong.body()).contains("to ");

    HttpResponse<String> limited = null;
    for (int i = 0; i <= TESTS_PER_MINUTE && limited == null; i++) {
      var answer =
          post("/campaigns/" + id + "/test", Map.of("_csrf", csrf, "to", "again@example.com"));
      if (answer.statusCode() != 303) limited = answer;
    }
    assertThat(limited).as("a test past the limit of " + TESTS_PER_MINUTE).isNotNull();
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow()))
        .isBetween(1L, 60L);
  }

  // helpers

  private static String signIn() throws Exception {
    var answer = HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(base.resolve("/signin"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("key=" + KEY + "&next=%2F"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(303);
    String set = answer.headers().firstValue("Set-Cookie").orElseThrow();
    return set.substring(0, set.indexOf(';'));
  }

  private HttpResponse<String> get(String path) throws Exception {
    return get(path, cookie);
  }

  private HttpResponse<String> get(String path, String session) throws Exception {
    return http.send(
        HttpRequest.newBuilder(base.resolve(path))
            .header("Cookie", session)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Posts a form as a browser on the site does: its origin, the session cookie. {@code path} may be a
   * whole URL, of another server.
   */
  private HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
    URI target = base.resolve(path);
    return post(
        path, form, Optional.of(target.getScheme() + "://" + target.getAuthority()), cookie);
  }

  private HttpResponse<String> post(
      String path, Map<String, String> form, Optional<String> origin, String session)
      throws Exception {
    String body = form.entrySet().stream()
        .map(field -> encode(field.getKey()) + "=" + encode(field.getValue()))
        .collect(Collectors.joining("&"));
    var request = HttpRequest.newBuilder(base.resolve(path))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Cookie", session);
    origin.ifPresent(value -> request.header("Origin", value));
    return http.send(
        request.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The session's token, as the page's forms carry it. */
  private static String token(String page) {
    var field = Jsoup.parse(page).selectFirst("input[name=_csrf]");
    assertThat(field).as("a form token on the page").isNotNull();
    return field.val();
  }

  /** The fields a browser would post from the page's form, buttons aside. */
  private static Map<String, String> form(String page, String selector) {
    var form = (FormElement) Jsoup.parse(page).selectFirst(selector);
    assertThat(form).as(selector).isNotNull();
    Map<String, String> fields = new LinkedHashMap<>();
    form.formData().forEach(field -> fields.put(field.key(), field.value()));
    // jsoup trims a textarea's value; a browser posts it whole
    form.select("textarea[name]").forEach(area -> fields.put(area.attr("name"), area.wholeText()));
    return fields;
  }

  private static Map<String, String> editorForm(String page) {
    return form(page, "form.editor");
  }

  /** The blank editor's form, filled in as an author would, with {@code changes} on top. */
  private Map<String, String> draftForm(String name, Map<String, String> changes) throws Exception {
    var form = editorForm(get("/campaigns/new").body());
    form.put("name", name);
    form.put("fromEmail", FROM);
    form.put("subject", "Hello {{subscriber.firstName}}");
    form.put("html", HTML);
    form.put("text", "Hello {{subscriber.name}}\n\nUnsubscribe: {{unsubscribeUrl}}");
    form.put("intent", "save");
    form.putAll(changes);
    return form;
  }

  private long createDraft(String name, Map<String, String> changes) throws Exception {
    var saved = post("/campaigns/new", draftForm(name, changes));
    assertThat(saved.statusCode()).as(saved.body()).isEqualTo(303);
    Matcher id = Pattern.compile("^/campaigns/(\\d+)\\?done=created$")
        .matcher(saved.headers().firstValue("Location").orElseThrow());
    assertThat(id.find()).isTrue();
    return Long.parseLong(id.group(1));
  }

  private static List<String> problems(String page) {
    return Jsoup.parse(page).select("#problems li").eachText();
  }

  private static String verdict(String page) {
    var verdict = Jsoup.parse(page).selectFirst(".verdict");
    assertThat(verdict).as("a verdict on the page").isNotNull();
    return verdict.text();
  }

  private static Campaign stored(long id) {
    return campaigns.get(id).orElseThrow();
  }

  private static int campaignCount() {
    return campaigns.list(Optional.empty(), 1000).size();
  }

  private static List<Path> outboxFiles() throws IOException {
    if (!Files.isDirectory(outbox)) return List.of();
    try (var files = Files.walk(outbox)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
