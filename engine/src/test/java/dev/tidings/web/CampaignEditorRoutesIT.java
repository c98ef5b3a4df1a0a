package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.WebUrl;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.RecordingSends;
import dev.tidings.campaign.Unsubscribes;
import dev.tidings.campaign.editor.CampaignPreviews;
import dev.tidings.campaign.editor.CampaignTemplateLibrary;
import dev.tidings.campaign.editor.SlotProduct;
import dev.tidings.campaign.editor.TestSends;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.config.Secret;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.mail.outbox.OutboxMailTransport;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import dev.tidings.opentime.SlotChooser;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.campaign.CampaignEditorRoutes;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The campaign editor's routes through a real server and PostgreSQL: starter templates, blocks, the
 * audience count (which agrees with what a send plans), the preview's slot products (nothing kept),
 * and test sends through a real mail transport (the outbox), limited per minute.
 */
class CampaignEditorRoutesIT {
  private static final String KEY = "campaign-editor-key-0123456789";
  private static final String CAMPAIGNS = "/api/v1/campaigns";
  private static final int PER_MINUTE = 2;
  private static final TokenCodec TOKENS =
      TokenCodec.of(new Secret("campaign-editor-secret-0123456789"));
  private static final String CAMPAIGN = """
      {"name":"Picks","from":{"email":"news@shop.example","name":"Shop"},
       "subject":"Hi {{subscriber.firstName}}","slots":3,
       "html":"<html><body><p>Hello {{subscriber.name}}</p></body></html>","text":"Hello {{subscriber.name}}"}""";
  private static Database database;
  private static HttpServer server;
  private static ApiClient api;
  private static RecordingSends sends;
  private static SlotChooser chooser;
  private static PrometheusMeterRegistry metrics;
  private static Path outbox;
  private static CampaignService campaigns;
  private static CampaignEmails emails;
  private static SubscriberService subscribers;
  private static final List<String> asked = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    database = TestDatabases.real();
    var jdbi = database.jdbi();
    InstantSource clock = InstantSource.system();
    metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    sends = new RecordingSends();
    subscribers = new SubscriberService(jdbi, clock);
    campaigns = new CampaignService(
        jdbi, sends, new AudienceQuery(jdbi, clock), clock, new SimpleMeterRegistry());
    var tokens = TOKENS;
    emails = new CampaignEmails(
        jdbi,
        subscribers,
        new SuppressionService(jdbi, clock),
        new CampaignRenderer(URI.create("https://mail.shop.example"), tokens, clock),
        clock,
        new SimpleMeterRegistry());
    var catalog = new CatalogService(jdbi, clock);
    for (int i = 0; i < 5; i++)
      catalog.put(new Product(
          "prod-" + i,
          "Product " + i,
          Optional.empty(),
          Optional.empty(),
          new BigDecimal("19.90"),
          Currency.getInstance("EUR"),
          WebUrl.of("https://img.shop.example/prod-" + i + ".png"),
          WebUrl.of("https://shop.example/p/prod-" + i),
          true,
          Map.of()));
    Recommender recommender = request -> {
      asked.add(request.subscriberId() + "/" + request.campaignId().orElse(0L));
      return new Recommendations(Stream.of("prod-2", "prod-0", "prod-4", "prod-1")
          .filter(id -> !request.exclude().contains(id))
          .limit(request.k())
          .map(id -> new Recommendations.Recommended(id, "test", 1))
          .toList());
    };
    chooser = new SlotChooser(
        InProcessCoordination.computeOnce(clock),
        recommender,
        jdbi,
        clock,
        metrics,
        SlotChooser.Options.defaults());
    var previews = new CampaignPreviews(
        campaigns,
        emails,
        token -> chooser.wouldChoose(token).productIds().stream()
            .flatMap(id -> catalog.get(id).stream())
            .map(p -> new SlotProduct(
                p.id(),
                p.title(),
                p.price(),
                p.currency(),
                p.imageUrl().orElseThrow().value()))
            .toList(),
        clock);
    outbox = Files.createTempDirectory("tidings-test-sends");
    var testSends = new TestSends(
        campaigns,
        emails,
        subscribers,
        new OutboxMailTransport(outbox, clock),
        InProcessCoordination.rateLimiter(clock),
        1_000,
        metrics);
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        metrics,
        List.of(),
        List.of(
            new CampaignRoutes(campaigns, 64 * 1024, CampaignHeadlines.NONE, previews),
            new CampaignEditorRoutes(
                campaigns, new CampaignTemplateLibrary(), testSends, 64 * 1024)));
    api = new ApiClient(server.port(), KEY);
    for (String id : List.of("ed-shown", "ed-opened", "ed-old", "ed-none"))
      subscribers.put(new Subscriber(
          id,
          id + "@example.com",
          Optional.of("Ed " + id),
          Locale.ENGLISH,
          ZoneId.of("UTC"),
          Optional.empty(),
          Consent.SUBSCRIBED));
    Instant now = clock.instant();
    new ActivityIntake(jdbi, clock)
        .record(List.of(
            new ActivityEvent(
                Optional.of("ed-e1"),
                "ed-opened",
                EventType.OPEN,
                "5",
                now.minus(Duration.ofDays(2)),
                1,
                Optional.empty()),
            new ActivityEvent(
                Optional.of("ed-e2"),
                "ed-old",
                EventType.OPEN,
                "5",
                now.minus(Duration.ofDays(40)),
                1,
                Optional.empty())));
    jdbi.useHandle(handle -> handle.execute(
        "INSERT INTO message_slots (message_id, subscriber_id, campaign_id, product_ids, chosen_at)"
            + " VALUES ('ed-m1', 'ed-shown', 5, ARRAY['prod-1'], now())"));
  }

  @AfterAll
  static void stop() {
    server.close();
    chooser.close();
    database.close();
  }

  private static long create(String body) {
    var created = api.postJson(CAMPAIGNS, body);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().path("id").asLong();
  }

  private static double testSends(String outcome) {
    return metrics.get(TestSends.METRIC).tag("outcome", outcome).counter().count();
  }

  @Test
  void the_audience_count_agrees_with_what_a_send_plans() {
    String opened =
        "{\"type\":\"segment\",\"conditions\":[{\"type\":\"openedWithin\",\"days\":7}]}";
    var count = api.postJson("/api/v1/audiences/count", "{\"audience\":" + opened + "}");
    assertThat(count.status()).as(count.body()).isEqualTo(200);
    assertThat(count.json().path("count").asLong()).isEqualTo(2);

    long id = create(CAMPAIGN.replace("\"slots\":3,", "\"slots\":3,\"audience\":" + opened + ","));
    assertThat(api.post(CAMPAIGNS + "/" + id + "/send", "application/json", "").status())
        .isEqualTo(202);
    var planned = sends.started.stream()
        .filter(s -> s.job().campaignId() == id)
        .findFirst()
        .orElseThrow()
        .recipients();
    assertThat(planned).containsExactlyInAnyOrder("ed-shown", "ed-opened");
    assertThat(api.postJson(
                "/api/v1/audiences/count",
                "{\"audience\":{\"type\":\"segment\",\"conditions\":[{\"type\":\"openedWithin\",\"days\":60}]}}")
            .json()
            .path("count")
            .asLong())
        .isEqualTo(3);
    assertThat(
            api.postJson("/api/v1/audiences/count", "{}").json().path("count").asLong())
        .as("no audience is everyone")
        .isGreaterThanOrEqualTo(4);
  }

  @Test
  void a_bad_audience_is_a_422_naming_the_field() {
    var answer = api.postJson(
        "/api/v1/audiences/count",
        "{\"audience\":{\"type\":\"segment\",\"conditions\":[{\"type\":\"openedWithin\",\"days\":0}]}}");
    assertThat(answer.status()).isEqualTo(422);
    assertThat(answer.detail()).contains("audience.conditions[0].days");
    var unknown = api.postJson("/api/v1/audiences/count", "{\"audiense\":{}}");
    assertThat(unknown.status()).isEqualTo(422);
    assertThat(unknown.detail()).contains("audiense");
    assertThat(api.postJson("/api/v1/audiences/count", "[]").status()).isEqualTo(422);
  }

  @Test
  void a_condition_naming_a_campaign_that_does_not_exist_is_a_422_naming_it_and_writes_nothing() {
    long known = create(CAMPAIGN);
    long missing = known + 1_000_000;
    String audience = "{\"type\":\"segment\",\"conditions\":[{\"type\":\"opened\",\"campaignId\":"
        + known + "},{\"type\":\"notOpened\",\"campaignId\":" + missing + "}]}";

    var count = api.postJson("/api/v1/audiences/count", "{\"audience\":" + audience + "}");
    assertThat(count.status()).as(count.body()).isEqualTo(422);
    assertThat(count.detail())
        .contains("audience.conditions[1].campaignId")
        .contains(Long.toString(missing))
        .doesNotContain("conditions[0]");

    String naming = CAMPAIGN.replace("\"slots\":3,", "\"slots\":3,\"audience\":" + audience + ",");
    long before = campaigns.list(Optional.empty(), 1).getFirst().id();
    var created = api.postJson(CAMPAIGNS, naming);
    assertThat(created.status()).as(created.body()).isEqualTo(422);
    assertThat(created.detail()).contains("audience.conditions[1].campaignId");
    assertThat(campaigns.list(Optional.empty(), 1).getFirst().id())
        .as("nothing stored")
        .isEqualTo(before);

    var replaced = api.putJson(CAMPAIGNS + "/" + known, naming);
    assertThat(replaced.status()).as(replaced.body()).isEqualTo(422);
    assertThat(replaced.detail()).contains("audience.conditions[1].campaignId");
    var patched = api.patchJson(
        CAMPAIGNS + "/" + known,
        "{\"audience\":{\"type\":\"segment\",\"conditions\":[{\"type\":\"inTest\",\"campaignId\":"
            + missing + "}]}}");
    assertThat(patched.status()).as(patched.body()).isEqualTo(422);
    assertThat(patched.detail()).contains("audience.conditions[0].campaignId");
    assertThat(campaigns.get(known).orElseThrow().definition().audience())
        .isEqualTo(new Audience.All());

    var fine = api.postJson(
        "/api/v1/audiences/count",
        "{\"audience\":{\"type\":\"segment\",\"conditions\":[{\"type\":\"notOpened\",\"campaignId\":"
            + known + "}]}}");
    assertThat(fine.status()).as(fine.body()).isEqualTo(200);
  }

  @Test
  void starter_templates_are_listed_and_read_one_by_one() {
    var list = api.get("/api/v1/campaign-templates");
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.json().path("items").findValuesAsString("name"))
        .containsExactly("newsletter", "open-time-picks", "digest", "announcement");
    var picks = api.get("/api/v1/campaign-templates/open-time-picks").json();
    assertThat(picks.path("slots").asInt()).isEqualTo(3);
    assertThat(picks.path("html").asString()).contains("{{#slots}}", "{{unsubscribeUrl}}");
    assertThat(api.get("/api/v1/campaign-templates/digest")
            .json()
            .path("digest")
            .path("minimum")
            .asInt())
        .isEqualTo(1);
    assertThat(api.get("/api/v1/campaign-templates/nope").status()).isEqualTo(404);

    // a starter is a campaign the API takes as it is
    String body = "{\"name\":\"From a starter\",\"from\":{\"email\":\"news@shop.example\"},"
        + "\"subject\":" + picks.path("subject") + ",\"html\":" + picks.path("html") + ",\"text\":"
        + picks.path("text") + ",\"slots\":" + picks.path("slots") + "}";
    create(body);
  }

  @Test
  void blocks_answer_snippets_and_refuse_bad_values_by_name() {
    var slots = api.postJson("/api/v1/campaign-blocks", "{\"type\":\"slots\",\"count\":3}");
    assertThat(slots.status()).isEqualTo(200);
    assertThat(slots.json().path("html").asString()).contains("{{#slots}}", "{{clickUrl}}");
    assertThat(slots.json().path("text").asString()).contains("{{#slots}}");
    var button = api.postJson(
        "/api/v1/campaign-blocks",
        "{\"type\":\"button\",\"label\":\"<Go>\",\"url\":\"https://shop.example/x\"}");
    assertThat(button.json().path("html").asString())
        .contains("&lt;Go&gt;", "href=\"https://shop.example/x\"");
    var bad = api.postJson(
        "/api/v1/campaign-blocks",
        "{\"type\":\"button\",\"label\":\"Go\",\"url\":\"javascript:alert(1)\"}");
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.detail()).contains("url");
    var tooMany = api.postJson("/api/v1/campaign-blocks", "{\"type\":\"slots\",\"count\":13}");
    assertThat(tooMany.status()).isEqualTo(422);
    assertThat(tooMany.detail()).contains("count");
  }

  @Test
  void the_preview_lists_what_the_slots_would_show_and_keeps_nothing() {
    long id = create(CAMPAIGN);
    var preview = api.get(CAMPAIGNS + "/" + id + "/preview?subscriber=ed-none");
    assertThat(preview.status()).as(preview.body()).isEqualTo(200);
    assertThat(preview.json().path("wouldSend").asBoolean()).isTrue();
    var products = preview.json().path("slotProducts");
    assertThat(products.findValuesAsString("id")).containsExactly("prod-2", "prod-0", "prod-4");
    assertThat(products.get(0).path("title").asString()).isEqualTo("Product 2");
    assertThat(products.get(0).path("price").decimalValue()).isEqualByComparingTo("19.90");
    assertThat(products.get(0).path("currency").asString()).isEqualTo("EUR");
    assertThat(products.get(0).path("imageUrl").asString())
        .isEqualTo("https://img.shop.example/prod-2.png");
    assertThat(asked).contains("ed-none/" + id);
    long kept = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT count(*) FROM message_slots WHERE subscriber_id = 'ed-none'")
            .mapTo(Long.class)
            .one());
    assertThat(kept)
        .as("a preview keeps no slot list (it would count as an open)")
        .isZero();
    assertThat(api.get(CAMPAIGNS + "/" + id + "/preview?subscriber=nobody").status())
        .isEqualTo(404);
  }

  @Test
  void a_test_send_goes_through_the_transport_marked_as_a_test_in_run_zero() throws IOException {
    long id = create(CAMPAIGN);
    double sentBefore = testSends("sent");
    var answer = api.postJson(
        CAMPAIGNS + "/" + id + "/test",
        "{\"to\":\"tester@example.com\",\"subscriberId\":\"ed-old\"}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.json().path("subject").asString()).isEqualTo("[Test] Hi Ed");
    String messageId = answer.json().path("messageId").asString();
    var message = MessageId.parse(messageId).orElseThrow();
    assertThat(message.runId()).isZero();
    assertThat(message.counted()).isFalse();
    assertThat(message.subscriberId()).isEqualTo("ed-old");

    String eml = emlOf(messageId);
    assertThat(eml)
        .contains("To: tester@example.com")
        .contains("X-Tidings-Test: true")
        .contains("Subject: [Test] Hi Ed");
    assertThat(testSends("sent")).isEqualTo(sentBefore + 1);

    var sample = api.postJson(CAMPAIGNS + "/" + id + "/test", "{\"to\":\"tester@example.com\"}");
    assertThat(sample.status()).isEqualTo(200);
    assertThat(sample.json().path("subject").asString()).isEqualTo("[Test] Hi Sample");
  }

  @Test
  void a_bad_test_send_is_a_4xx_naming_the_field_and_sends_nothing() throws IOException {
    long id = create(CAMPAIGN);
    long before;
    try (var files = Files.walk(outbox)) {
      before = files.filter(Files::isRegularFile).count();
    }
    var badTo = api.postJson(CAMPAIGNS + "/" + id + "/test", "{\"to\":\"a@b@example.com\"}");
    assertThat(badTo.status()).isEqualTo(422);
    assertThat(badTo.detail()).startsWith("to ");
    var twoAddresses =
        api.postJson(CAMPAIGNS + "/" + id + "/test", "{\"to\":\"a@example.com, b@example.com\"}");
    assertThat(twoAddresses.status()).isEqualTo(422);
    assertThat(api.postJson(CAMPAIGNS + "/" + id + "/test", "{}").detail()).contains("to");
    assertThat(api.postJson(
                CAMPAIGNS + "/" + id + "/test",
                "{\"to\":\"t@example.com\",\"subscriberId\":\"nobody\"}")
            .status())
        .isEqualTo(404);
    assertThat(api.postJson(CAMPAIGNS + "/999999999/test", "{\"to\":\"t@example.com\"}")
            .status())
        .isEqualTo(404);
    try (var files = Files.walk(outbox)) {
      assertThat(files.filter(Files::isRegularFile).count()).isEqualTo(before);
    }
  }

  @Test
  void test_sends_past_the_limit_get_429_with_retry_after() throws Exception {
    long id = create(CAMPAIGN);
    // a limiter of its own, so that the other tests' sends do not count against its limit
    InstantSource clock = InstantSource.system();
    var limitedSends = new TestSends(
        campaigns,
        emails,
        subscribers,
        new OutboxMailTransport(Files.createTempDirectory("tidings-limited-sends"), clock),
        InProcessCoordination.rateLimiter(clock),
        PER_MINUTE,
        metrics);
    var limitedServer = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new CampaignEditorRoutes(
            campaigns, new CampaignTemplateLibrary(), limitedSends, 64 * 1024)));
    var http = HttpClient.newHttpClient();
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (int i = 0; i <= PER_MINUTE; i++)
      answers.add(http.send(
          HttpRequest.newBuilder(URI.create(
                  "http://127.0.0.1:" + limitedServer.port() + CAMPAIGNS + "/" + id + "/test"))
              .header("Authorization", "Bearer " + KEY)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString("{\"to\":\"limit@example.com\"}"))
              .build(),
          HttpResponse.BodyHandlers.ofString()));
    limitedServer.close();
    assertThat(answers.subList(0, PER_MINUTE))
        .allSatisfy(answer -> assertThat(answer.statusCode()).isEqualTo(200));
    var limited = answers.getLast();
    assertThat(limited.statusCode()).isEqualTo(429);
    long retryAfter = Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow());
    assertThat(retryAfter).isBetween(1L, 60L);
    assertThat(testSends("limited")).isGreaterThanOrEqualTo(1);
  }

  @Test
  void the_unsubscribe_link_of_a_test_email_unsubscribes_nobody() {
    InstantSource clock = InstantSource.system();
    var suppressions = new SuppressionService(database.jdbi(), clock);
    var unsubscribes = new Unsubscribes(TOKENS, subscribers, suppressions, sends, clock);
    String test = TOKENS.encode(
        new MessageToken(new MessageId(9, MessageId.UNCOUNTED_RUN, "ed-none"), Instant.now(), 0));

    assertThat(unsubscribes.whom(test)).isEmpty();
    assertThat(unsubscribes.unsubscribe(test)).isEmpty();
    assertThat(suppressions.isSuppressed("ed-none@example.com")).isFalse();
  }

  private static String emlOf(String messageId) throws IOException {
    try (var files = Files.walk(outbox)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (text.contains(messageId)) return text;
      }
    }
    throw new AssertionError("no .eml for " + messageId + " in " + outbox);
  }
}
