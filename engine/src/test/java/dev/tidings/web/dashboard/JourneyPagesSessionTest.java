package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.journeys.JourneyFigures;
import dev.tidings.journeys.JourneyState;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.StepSender;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.queue.postgres.PostgresQueueOptions;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.recommend.Recommendations;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The journeys' pages over HTTP on PostgreSQL, signed in: a journey is made from a template (its
 * emails as draft campaigns), moved through its states with guarded forms as the API allows, edited
 * (a refused form comes back with the problem beside its field and nothing saved; a valid one is the
 * next version), its emails previewed as a subscriber, and its figures streamed.
 */
@StartsServers
class JourneyPagesSessionTest {
  private static final String KEY = "journey-pages-key-0123456789";
  private static final InstantSource CLOCK = InstantSource.system();
  private static final PrometheusMeterRegistry REGISTRY =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private static final AtomicInteger CHANGES = new AtomicInteger();
  private static Database database;
  private static PostgresWorkQueue queue;
  private static JourneyStore store;
  private static CampaignService campaigns;
  private static HttpServer server;
  private static URI node;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  @BeforeAll
  static void start() {
    database = TestDatabases.embedded();
    var jdbi = database.jdbi();
    queue =
        new PostgresWorkQueue(database, PostgresQueueOptions.defaults(), new SimpleMeterRegistry());
    var subscribers = new SubscriberService(jdbi, CLOCK);
    subscribers.put(new Subscriber(
        "ann-1",
        "ann@example.com",
        Optional.of("Ann"),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        Consent.SUBSCRIBED));
    store = new JourneyStore(jdbi, CLOCK);
    @SuppressWarnings("NullAway") // nothing here sends: the journeys are only made and edited
    var service = new CampaignService(
        jdbi, null, new AudienceQuery(jdbi, CLOCK), CLOCK, new SimpleMeterRegistry());
    campaigns = service;
    var nothingSent = new StepSender() {
      @Override
      public Optional<Long> runFor(long campaignId, String key) {
        return Optional.empty();
      }

      @Override
      public void send(long campaignId, long runId, String subscriberId) {}

      @Override
      public Optional<Outcomes> outcomes(long campaignId, long runId) {
        return Optional.empty();
      }
    };
    @SuppressWarnings("NullAway") // the campaign pages are never opened here
    var sources = new DashboardSources(
        null,
        null,
        new DeliveryStats(jdbi),
        new ShownProducts(jdbi),
        new CatalogService(jdbi, CLOCK),
        new Notifications(
            jdbi, CLOCK, Notifications.ProductShelf.ALL_AVAILABLE, new SimpleMeterRegistry()),
        null,
        subscribers,
        request -> new Recommendations(List.of()),
        List.of(),
        queue,
        List.of(),
        () -> new DashboardSources.Counting(0, Duration.ZERO),
        List::of,
        new Secret(KEY),
        CLOCK,
        false);
    var journeys = new JourneyPagesSources(
        store,
        new JourneyFigures(jdbi, nothingSent),
        (email, fromEmail, fromName) -> {
          // as the wiring makes a template's email: a draft to everyone
          ObjectNode json = Json.MAPPER.createObjectNode();
          json.put("name", email.name());
          json.putObject("from").put("email", fromEmail).put("name", fromName);
          json.put("subject", email.subject());
          json.put("html", email.html());
          json.put("text", email.text());
          json.put("slots", email.slots());
          json.putObject("audience").put("type", "all");
          return service.create(CampaignJson.fromJson(json)).id();
        },
        CHANGES::incrementAndGet,
        service,
        subscribers,
        CLOCK);
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        REGISTRY,
        List.of(),
        List.of(new DashboardRoutes(
            sources,
            Optional.empty(),
            new dev.tidings.web.dashboard.SessionSignOuts(jdbi, CLOCK),
            Optional.empty(),
            REGISTRY,
            Optional.empty(),
            Optional.empty(),
            Optional.of(journeys))));
    node = URI.create("http://127.0.0.1:" + server.port());
  }

  @AfterAll
  static void stop() {
    server.close();
    queue.close();
    database.close();
  }

  @Test
  void a_journey_is_made_from_a_template_moved_through_its_states_and_edited_as_a_new_version()
      throws Exception {
    String cookie = signIn();
    var templates = Jsoup.parse(get("/journeys/new", cookie).body());
    assertThat(templates.select("ul.choices a").eachAttr("href"))
        .hasSize(7)
        .contains("/journeys/new?template=abandoned_cart#make");
    var chosen = get("/journeys/new?template=abandoned_cart", cookie);
    assertThat(chosen.statusCode()).isEqualTo(200);
    String token = token(chosen.body());
    assertThat(Jsoup.parse(chosen.body()).select("#make ~ ul li").eachText())
        .containsExactly(
            "Cart reminder: “You left something in your cart”",
            "Cart last call: “Last call for your cart”");
    assertThat(get("/journeys/new?template=nope", cookie).statusCode()).isEqualTo(404);

    String make = "template=abandoned_cart&fromEmail=" + encode("news@shop.example") + "&fromName="
        + encode("Shop <1>");
    assertThat(post("/journeys/new", make, cookie).statusCode()).as("no token").isEqualTo(403);
    var refused = post(
        "/journeys/new",
        "_csrf=" + token + "&template=abandoned_cart&fromEmail=not-an-address",
        cookie);
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(Jsoup.parse(refused.body()).getElementById("fromEmail-error").text())
        .contains("one address");
    assertThat(store.list(Optional.empty(), 10)).as("nothing refused was made").isEmpty();

    String made = location(post("/journeys/new", "_csrf=" + token + "&" + make, cookie));
    assertThat(made).matches("/journeys/\\d+\\?done=made");
    long id = Long.parseLong(made.replaceAll("\\D*(\\d+).*", "$1"));
    var saved = store.latest(id).orElseThrow();
    assertThat(saved.journey().name()).isEqualTo("Abandoned cart");
    assertThat(store.state(id)).contains(JourneyState.DRAFT);
    var page = Jsoup.parse(get(made, cookie).body());
    assertThat(page.select("[role=status]").text()).startsWith("Made as a draft");
    assertThat(page.select(".flow-steps code").eachText())
        .containsExactly("hour", "reminder", "day", "last-call");
    assertThat(page.select("#step-reminder .line a").text()).isEqualTo("Cart reminder");
    assertThat(controls(page)).containsExactly("activate");
    assertThat(Jsoup.parse(get("/journeys", cookie).body())
            .select("a[href=/journeys/" + id + "]")
            .text())
        .isEqualTo("Abandoned cart");

    // the moves, as the API allows them; a page older than the journey is refused, not obeyed
    String move = "/journeys/" + id + "/";
    assertThat(post(move + "activate", "", cookie).statusCode()).isEqualTo(403);
    assertThat(post(move + "pause", "_csrf=" + token, cookie).statusCode()).isEqualTo(409);
    int changes = CHANGES.get();
    assertThat(location(post(move + "activate", "_csrf=" + token, cookie)))
        .isEqualTo("/journeys/" + id + "?done=activated");
    assertThat(store.state(id)).contains(JourneyState.ACTIVE);
    assertThat(CHANGES.get()).as("the runtime was told").isEqualTo(changes + 1);
    assertThat(controls(Jsoup.parse(get("/journeys/" + id, cookie).body())))
        .containsExactly("pause", "drain");
    assertThat(post(move + "activate", "_csrf=" + token, cookie).statusCode()).isEqualTo(409);
    assertThat(location(post(move + "pause", "_csrf=" + token, cookie))).endsWith("done=paused");
    assertThat(store.state(id)).contains(JourneyState.PAUSED);
    assertThat(location(post(move + "drain", "_csrf=" + token, cookie))).endsWith("done=drained");
    assertThat(store.state(id)).contains(JourneyState.DRAINING);
    assertThat(controls(Jsoup.parse(get("/journeys/" + id, cookie).body())))
        .containsExactly("activate", "pause");

    // the editor: a refused form comes back as typed with its problem beside the field
    var editor = Jsoup.parse(get("/journeys/" + id + "/edit", cookie).body());
    Map<String, String> form = fields(editor.selectFirst("form.journey-editor"));
    assertThat(form.get("s1.type")).isEqualTo("send");
    assertThat(form.get("s0.for")).isEqualTo("1");
    assertThat(form.get("s0.forUnit")).isEqualTo("hours");
    form.put("s1.campaign", "");
    form.put("s2.for", "soon");
    var problems = post("/journeys/" + id + "/edit", body(form), cookie);
    assertThat(problems.statusCode()).isEqualTo(422);
    var shown = Jsoup.parse(problems.body());
    assertThat(shown.getElementById("s1.campaign-error").text())
        .isEqualTo("Enter the campaign of step 2.");
    assertThat(shown.getElementById("s2.for").val()).isEqualTo("soon");
    assertThat(store.latest(id).orElseThrow().version()).as("nothing saved").isEqualTo(1);

    // a valid form is the next version; the people inside stay on theirs
    form.put("s1.campaign", fields(editor.selectFirst("form.journey-editor")).get("s1.campaign"));
    form.put("s0.for", "5");
    form.put("s0.forUnit", "seconds");
    form.put("s2.for", "8");
    form.put("s2.forUnit", "seconds");
    form.put("holdOut", "0");
    assertThat(location(post("/journeys/" + id + "/edit", body(form), cookie)))
        .isEqualTo("/journeys/" + id + "?done=saved");
    var revised = store.latest(id).orElseThrow();
    assertThat(revised.version()).isEqualTo(2);
    assertThat(revised.journey().holdOut()).isZero();
    assertThat(revised.journey().steps()).hasSize(4);
    assertThat(revised.journey().step("hour").toString()).contains("PT5S");
    var after = Jsoup.parse(get("/journeys/" + id + "?done=saved", cookie).body());
    assertThat(after.select("[role=status]").text()).startsWith("Saved as version 2");
    assertThat(after.select("ul.versions li").eachText().getFirst())
        .startsWith("Version 2 current");
    assertThat(after.select("#step-hour .line").first().text()).isEqualTo("Waits 5 seconds");
    var older = Jsoup.parse(get("/journeys/" + id + "?version=1", cookie).body());
    assertThat(older.select("#step-hour .line").first().text()).isEqualTo("Waits 1 hour");

    // a send step's email as a subscriber would get it, through the campaign's preview
    long reminder = Long.parseLong(form.get("s1.campaign"));
    var preview = Jsoup.parse(
        get("/journeys/" + id + "/edit?step=reminder&subscriber=ann%40example.com", cookie)
            .body());
    assertThat(preview.select("#preview-reminder iframe").attr("src"))
        .isEqualTo("/campaigns/" + reminder + "/preview/email?subscriber=ann-1");
    assertThat(preview.select("#preview-reminder a").eachAttr("href"))
        .contains("/campaigns/" + reminder + "/preview?subscriber=ann-1");
    var nobody = Jsoup.parse(
        get("/journeys/" + id + "/edit?step=reminder&subscriber=nobody", cookie).body());
    assertThat(nobody.select("#preview-reminder [role=alert]").text())
        .contains("No subscriber has the id or email");

    // the figures stream as the page's cells name them
    assertThat(firstEvent("/live/journeys/" + id, cookie))
        .contains("\"entries\":\"0\"", "\"s.reminder.sent\":\"0\"");
    assertThat(firstEvent("/live/journeys", cookie)).contains("\"j" + id + ".state\":\"draining\"");
  }

  @Test
  void unknown_journeys_and_moves_are_answered_not_failed() throws Exception {
    String cookie = signIn();
    assertThat(get("/journeys/987654", cookie).statusCode()).isEqualTo(404);
    assertThat(get("/journeys/abc", cookie).statusCode()).isEqualTo(404);
    assertThat(get("/journeys/987654/edit", cookie).statusCode()).isEqualTo(404);
    String token = token(get("/journeys/new", cookie).body());
    assertThat(post("/journeys/987654/activate", "_csrf=" + token, cookie).statusCode())
        .isEqualTo(404);
    assertThat(get("/journeys?after=x", cookie).statusCode()).isEqualTo(200);
    var stream = client.send(
        HttpRequest.newBuilder(node.resolve("/live/journeys/987654"))
            .header("Cookie", cookie)
            .build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(stream.statusCode()).isEqualTo(404);
    var anonymous = client.send(
        HttpRequest.newBuilder(node.resolve("/journeys")).build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(anonymous.statusCode()).as("off to sign in").isEqualTo(303);
  }

  /** The verbs of the move forms a journey's page shows. */
  private static List<String> controls(Document page) {
    return page.select("nav.controls form").eachAttr("action").stream()
        .map(action -> action.substring(action.lastIndexOf('/') + 1))
        .toList();
  }

  /** A form's fields as a browser would send them: inputs' values and the selected options. */
  private static Map<String, String> fields(Element form) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (Element input : form.select("input[name]")) fields.put(input.attr("name"), input.val());
    for (Element select : form.select("select[name]")) {
      Element chosen = select.selectFirst("option[selected]");
      if (chosen == null) chosen = select.selectFirst("option");
      fields.put(select.attr("name"), chosen == null ? "" : chosen.val());
    }
    fields.put("intent", "save");
    return fields;
  }

  private static String body(Map<String, String> fields) {
    return fields.entrySet().stream()
        .map(field -> encode(field.getKey()) + "=" + encode(field.getValue()))
        .collect(Collectors.joining("&"));
  }

  /** The first figures a live stream sends. */
  private String firstEvent(String path, String cookie) throws Exception {
    var answer = client.send(
        HttpRequest.newBuilder(node.resolve(path)).header("Cookie", cookie).build(),
        HttpResponse.BodyHandlers.ofInputStream());
    assertThat(answer.statusCode()).isEqualTo(200);
    try (var lines =
        new BufferedReader(new InputStreamReader(answer.body(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine())
        if (line.startsWith("data: ")) return line;
    }
    throw new AssertionError("no figures from " + path);
  }

  private HttpResponse<String> get(String path, String cookie) throws Exception {
    return client.send(
        HttpRequest.newBuilder(node.resolve(path))
            .header("Cookie", cookie)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String form, String cookie) throws Exception {
    var request = HttpRequest.newBuilder(node.resolve(path))
        .header("Content-Type", "application/x-www-form-urlencoded");
    if (!cookie.isEmpty()) request.header("Cookie", cookie);
    return client.send(
        request.POST(HttpRequest.BodyPublishers.ofString(form)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String signIn() throws Exception {
    var answer = post("/signin", "key=" + KEY + "&next=%2Fjourneys", "");
    assertThat(answer.statusCode()).isEqualTo(303);
    String set = answer.headers().firstValue("Set-Cookie").orElseThrow();
    return set.substring(0, set.indexOf(';'));
  }

  private static String token(String page) {
    var found = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page);
    assertThat(found.find()).as("a form token on the page").isTrue();
    return found.group(1);
  }

  private static String location(HttpResponse<String> answer) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(303);
    return answer.headers().firstValue("Location").orElseThrow();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
