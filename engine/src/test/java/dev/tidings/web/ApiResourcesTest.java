package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.activity.ActivityHistory;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.AggregationDefinitions;
import dev.tidings.app.OptimizeExperiments;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.RecordingSends;
import dev.tidings.campaign.editor.CampaignTemplateLibrary;
import dev.tidings.campaign.editor.TestSends;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.coordination.Race;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.webhook.DeliveryWebhooks;
import dev.tidings.delivery.webhook.RecordingReceiptSink;
import dev.tidings.events.EventLog;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.history.SubscriberHistory;
import dev.tidings.journeys.JourneyFigures;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.ReaderLimitsStore;
import dev.tidings.journeys.RecordingStepSender;
import dev.tidings.mail.outbox.OutboxMailTransport;
import dev.tidings.message.TokenCodec;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.EngagementRecorder;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.opentime.SlotChooser;
import dev.tidings.opentime.SlotImages;
import dev.tidings.opentime.card.ProductCards;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.optimize.ItemConfigurations;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.activity.ActivityRoutes;
import dev.tidings.web.aggregate.AggregateRoutes;
import dev.tidings.web.audience.AudienceRoutes;
import dev.tidings.web.audience.SubscriberHistoryRoutes;
import dev.tidings.web.campaign.CampaignEditorRoutes;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import dev.tidings.web.catalog.CatalogRoutes;
import dev.tidings.web.catalog.MarketRoutes;
import dev.tidings.web.delivery.DeliveryRoutes;
import dev.tidings.web.delivery.DeliveryWebhookRoutes;
import dev.tidings.web.events.EventsRoutes;
import dev.tidings.web.journeys.JourneyRoutes;
import dev.tidings.web.notify.NotifyRoutes;
import dev.tidings.web.opentime.OpenTimeRoutes;
import dev.tidings.web.optimize.ExperimentRoutes;
import dev.tidings.web.optimize.OptimizeRoutes;
import dev.tidings.web.recommend.RecommendRoutes;
import dev.tidings.web.webhooks.WebhookRoutes;
import dev.tidings.webhooks.WebhookDeadLetters;
import dev.tidings.webhooks.WebhookEndpoints;
import dev.tidings.webhooks.WebhookUrls;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every REST resource through a real server and a real (embedded) PostgreSQL: good requests work, and
 * each kind of bad request gets a 4xx that says what is wrong and leaves nothing half-written.
 */
@StartsServers
class ApiResourcesTest {
  private static final String KEY = "resources-test-key-0123456789";
  private static final long MAX_IMPORT = 64 * 1024;
  private static final String PRODUCTS = "/api/v1/products";
  private static final String SUBSCRIBERS = "/api/v1/subscribers";
  /** Concurrent requests per round: more than the database pool's connections, so some wait on others. */
  private static final int WRITERS = 16;

  private static final int ROUNDS = 5;
  private static final Duration BOUND = Duration.ofSeconds(60);
  private static Database database;
  private static HttpServer server;
  private static ApiClient api;
  private static CatalogService catalog;
  private static WorkQueue queue;
  private static SlotChooser chooser;
  private static EngagementRecorder engagements;
  private static ActivityIntake activity;
  private static LiveRecommender recommender;

  private static final String PRODUCT = """
      {"id":"%s","title":"Linen Shirt","brand":"Velin","category":"men/shirts","price":"49.90","currency":"EUR",
       "imageUrl":"https://img.example/%1$s.png","landingUrl":"https://shop.example/p/%1$s","available":true,
       "attributes":{"colour":"white"}}""";

  @BeforeAll
  static void start() throws IOException {
    database = TestDatabases.embedded();
    InstantSource clock = InstantSource.system();
    catalog = new CatalogService(database.jdbi(), clock);
    activity = new ActivityIntake(database.jdbi(), clock);
    var metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    chooser = new SlotChooser(
        InProcessCoordination.computeOnce(clock),
        request -> new Recommendations(List.of()),
        database.jdbi(),
        clock,
        metrics,
        SlotChooser.Options.defaults());
    engagements = new EngagementRecorder(queue, 1_000);
    recommender = LiveRecommender.of(
        database.jdbi(), clock, LiveRecommender.Options.defaults(), new SimpleMeterRegistry());
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        metrics,
        List.of(),
        List.of(
            new CatalogRoutes(catalog, 8 * 1024, MAX_IMPORT),
            new MarketRoutes(
                new dev.tidings.catalog.Markets(database.jdbi(), clock), catalog, 8 * 1024),
            new AudienceRoutes(
                new SubscriberService(database.jdbi(), clock),
                new FollowService(database.jdbi(), clock),
                new SuppressionService(database.jdbi(), clock),
                new SuppressionChanges(new SimpleMeterRegistry()),
                clock,
                8 * 1024,
                MAX_IMPORT),
            new SubscriberHistoryRoutes(
                new SubscriberService(database.jdbi(), clock),
                new SubscriberHistory(
                    new DeliveryStats(database.jdbi()),
                    new ShownProducts(database.jdbi()),
                    campaignId -> Optional.empty(),
                    new ActivityHistory(database.jdbi()))),
            new ActivityRoutes(activity, 8 * 1024, MAX_IMPORT),
            new EventsRoutes(new EventLog(database.jdbi())),
            new NotifyRoutes(
                new Notifications(
                    database.jdbi(),
                    clock,
                    Notifications.ProductShelf.ALL_AVAILABLE,
                    new SimpleMeterRegistry()),
                8 * 1024),
            new OptimizeRoutes(new ItemConfigurations(database.jdbi(), clock), 8 * 1024),
            new JourneyRoutes(
                new JourneyStore(database.jdbi(), clock),
                new ReaderLimitsStore(database.jdbi()),
                new JourneyFigures(
                    database.jdbi(), new RecordingStepSender(java.util.Set.of(Journeys.CAMPAIGN))),
                id -> id == Journeys.CAMPAIGN,
                () -> {},
                (email, from, name) -> Journeys.CAMPAIGN,
                8 * 1024),
            new WebhookRoutes(
                new WebhookEndpoints(
                    database.jdbi(), new WebhookUrls(FetchAllowance.none()), clock),
                new WebhookDeadLetters(database.jdbi(), queue, clock),
                8 * 1024),
            new ExperimentRoutes(
                new CampaignService(
                    database.jdbi(),
                    new RecordingSends(),
                    new AudienceQuery(database.jdbi(), clock),
                    clock,
                    new SimpleMeterRegistry()),
                new CampaignExperiments(database.jdbi(), clock, new SimpleMeterRegistry()),
                OptimizeExperiments::plan),
            new AggregateRoutes(
                new AggregateStore(database.jdbi()),
                new AggregationDefinitions(database.jdbi(), Duration.ofSeconds(5))),
            new CampaignRoutes(
                new CampaignService(
                    database.jdbi(),
                    new RecordingSends(),
                    new AudienceQuery(database.jdbi(), clock),
                    clock,
                    new SimpleMeterRegistry()),
                new CampaignEmails(
                    database.jdbi(),
                    new SubscriberService(database.jdbi(), clock),
                    new SuppressionService(database.jdbi(), clock),
                    new CampaignRenderer(
                        URI.create("http://localhost:8080"),
                        TokenCodec.of(new Secret("resources-test-secret-0123456789")),
                        clock),
                    clock,
                    new SimpleMeterRegistry()),
                8 * 1024,
                CampaignHeadlines.NONE),
            new CampaignEditorRoutes(
                new CampaignService(
                    database.jdbi(),
                    new RecordingSends(),
                    new AudienceQuery(database.jdbi(), clock),
                    clock,
                    new SimpleMeterRegistry()),
                new CampaignTemplateLibrary(),
                new TestSends(
                    new CampaignService(
                        database.jdbi(),
                        new RecordingSends(),
                        new AudienceQuery(database.jdbi(), clock),
                        clock,
                        new SimpleMeterRegistry()),
                    new CampaignEmails(
                        database.jdbi(),
                        new SubscriberService(database.jdbi(), clock),
                        new SuppressionService(database.jdbi(), clock),
                        new CampaignRenderer(
                            URI.create("http://localhost:8080"),
                            TokenCodec.of(new Secret("resources-test-secret-0123456789")),
                            clock),
                        clock,
                        new SimpleMeterRegistry()),
                    new SubscriberService(database.jdbi(), clock),
                    new OutboxMailTransport(
                        Files.createTempDirectory("tidings-resources-outbox"), clock),
                    InProcessCoordination.rateLimiter(clock),
                    10,
                    new SimpleMeterRegistry()),
                8 * 1024),
            new DeliveryWebhookRoutes(
                new DeliveryWebhooks(
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()),
                RecordingReceiptSink::new,
                8 * 1024,
                clock,
                new SimpleMeterRegistry()),
            new DeliveryRoutes(new DeliveryStats(database.jdbi()), clock),
            new RecommendRoutes(recommender, clock, Duration.ofMillis(250), 8 * 1024),
            new OpenTimeRoutes(
                TokenCodec.of(new Secret("resources-test-secret-0123456789")),
                chooser,
                new SlotImages(
                    chooser,
                    new ProductCards(
                        Files.createTempDirectory("tidings-resources-cards"),
                        ProductCards.Options.defaults(),
                        FetchAllowance.none(),
                        new SimpleMeterRegistry()),
                    catalog,
                    new SubscriberService(database.jdbi(), clock)),
                engagements,
                URI.create("https://shop.example/"),
                clock,
                new SimpleMeterRegistry())));
    api = new ApiClient(server.port(), KEY);
  }

  @AfterAll
  static void stop() {
    server.close();
    recommender.close();
    engagements.close();
    chooser.close();
    queue.close();
    database.close();
  }

  /** Exactly one answer is 201 (returned), every other one a 409 that says how to replace. */
  private static ApiClient.Answer onlyCreated(List<ApiClient.Answer> answers) {
    assertThat(answers)
        .extracting(ApiClient.Answer::status)
        .containsOnly(201, 409)
        .containsOnlyOnce(201);
    answers.stream()
        .filter(answer -> answer.status() == 409)
        .forEach(conflict -> assertThat(conflict.detail()).contains("exists; PUT"));
    return answers.stream().filter(answer -> answer.status() == 201).findFirst().orElseThrow();
  }

  /** The field of each problem of a refusal, as its body names them ({@code ""} for none). */
  private static List<String> fields(ApiClient.Answer refused) {
    JsonNode body = refused.json();
    if (!body.has("problems")) return List.of(body.path("field").asString(""));
    var fields = new ArrayList<String>();
    for (JsonNode problem : body.path("problems"))
      fields.add(problem.path("field").asString(""));
    return fields;
  }

  @Test
  void bad_content_gets_a_422_that_names_each_field() {
    var refused = api.putJson("/api/v1/content/bad-fields", """
        {"type": "poster", "title": "x", "endsAt": "soon",
         "owners": [{"type": "brand", "id": "b"}, {"type": "band", "id": "y"}]}""");
    assertThat(refused.status()).isEqualTo(422);
    assertThat(fields(refused)).containsExactlyInAnyOrder("type", "owners[1].type", "endsAt");
  }

  @Test
  void every_documented_api_route_exists() throws Exception {
    var document =
        Json.MAPPER.readTree(ApiResourcesTest.class.getResourceAsStream("/web/openapi.json"));
    int checked = 0;
    for (var path : document.path("paths").propertyNames()) {
      if (!path.startsWith("/api/")) continue;
      String concrete = path.replaceAll("\\{type}", "brand").replaceAll("\\{[^}]+}", "x");
      for (var method : document.path("paths").path(path).propertyNames()) {
        var answer = switch (method) {
          case "get" -> api.get(concrete);
          case "delete" -> api.delete(concrete);
          case "post" -> api.post(concrete, "application/json", "{}");
          case "put" -> api.put(concrete, "application/json", "{}");
          default -> null;
        };
        if (answer == null) continue;
        checked++;
        assertThat(answer.body()).as(method + " " + path).doesNotContain("no route for");
      }
    }
    assertThat(checked).isGreaterThan(15);
  }

  @Nested
  class Products {
    @Test
    void a_product_an_earlier_version_stored_with_a_landing_url_today_refuses_is_listed_and_read() {
      assertThat(api.postJson(PRODUCTS, PRODUCT.formatted("old-landing")).status())
          .isEqualTo(201);
      // as an earlier version stored it: straight into the table, past today's rules
      database
          .jdbi()
          .useHandle(handle -> handle.execute(
              "UPDATE products SET landing_url = 'http://[1.2.3]/x' WHERE id = 'old-landing'"));

      var one = api.get(PRODUCTS + "/old-landing");
      assertThat(one.status()).as(one.body()).isEqualTo(200);
      assertThat(one.json().has("landingUrl")).isFalse();
      assertThat(one.json().path("imageUrl").asString())
          .isEqualTo("https://img.example/old-landing.png");

      List<String> listed = new ArrayList<>();
      String after = "";
      while (after != null) {
        var page = api.get(PRODUCTS + "?limit=1000" + (after.isEmpty() ? "" : "&after=" + after));
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        page.json().path("items").forEach(item -> listed.add(item.path("id").asString()));
        var next = page.json().path("next");
        after = next.isMissingNode() || next.isNull() ? null : next.asString();
      }
      assertThat(listed).contains("old-landing");
    }

    @Test
    void create_read_replace_delete() {
      var created = api.postJson("/api/v1/products", PRODUCT.formatted("crud-1"));
      assertThat(created.status()).isEqualTo(201);
      assertThat(created.json().path("price").decimalValue()).isEqualByComparingTo("49.90");
      assertThat(api.get("/api/v1/products/crud-1").json().path("title").asString())
          .isEqualTo("Linen Shirt");

      var replaced = api.putJson(
          "/api/v1/products/crud-1",
          PRODUCT.formatted("crud-1").replace("Linen Shirt", "Oxford Shirt"));
      assertThat(replaced.status()).isEqualTo(200);
      assertThat(api.get("/api/v1/products/crud-1").json().path("title").asString())
          .isEqualTo("Oxford Shirt");

      assertThat(api.delete("/api/v1/products/crud-1").status()).isEqualTo(204);
      assertThat(api.get("/api/v1/products/crud-1").status()).isEqualTo(404);
      assertThat(api.delete("/api/v1/products/crud-1").status()).isEqualTo(404);
    }

    @Test
    void a_price_keeps_every_digit_through_the_api() {
      // a JSON number, as most clients send a price
      String body = PRODUCT.formatted("precise-1").replace("\"49.90\"", "12345678901234567.89");
      assertThat(body).contains("\"price\":12345678901234567.89");
      assertThat(api.postJson(PRODUCTS, body).status()).isEqualTo(201);
      var read = api.get(PRODUCTS + "/precise-1");
      // the raw text, not a parsed number: a double on either side would round the cents away
      assertThat(read.body()).contains("\"price\":12345678901234567.89");
    }

    @Test
    void concurrent_creates_of_one_product_get_one_201_and_409_for_the_rest() {
      for (int round = 0; round < ROUNDS; round++) {
        String id = "race-" + round;
        List<String> bodies = IntStream.range(0, WRITERS)
            .mapToObj(i -> PRODUCT.formatted(id).replace("Linen Shirt", "Writer " + i))
            .toList();
        var answers = Race.together(bodies, body -> api.postJson(PRODUCTS, body), BOUND);
        var created = onlyCreated(answers);
        assertThat(api.get(PRODUCTS + "/" + id).json().path("title").asString())
            .isEqualTo(created.json().path("title").asString());
      }
    }

    @Test
    void creating_an_existing_product_is_a_conflict_that_changes_nothing() {
      api.postJson("/api/v1/products", PRODUCT.formatted("dup-1"));
      var again = api.postJson(
          "/api/v1/products", PRODUCT.formatted("dup-1").replace("Linen Shirt", "Other"));
      assertThat(again.status()).isEqualTo(409);
      assertThat(again.detail()).contains("PUT /api/v1/products/dup-1");
      assertThat(api.get("/api/v1/products/dup-1").json().path("title").asString())
          .isEqualTo("Linen Shirt");
    }

    @Test
    void a_url_the_redirect_parser_refuses_is_a_422_naming_the_field() {
      for (String landing : new String[] {"http://[1.2.3]/x", "https://shop.example/a\u00a0b"}) {
        var answer = api.postJson(
            "/api/v1/products",
            PRODUCT.formatted("odd-url").replace("https://shop.example/p/odd-url", landing));
        assertThat(answer.status()).as(landing).isEqualTo(422);
        assertThat(answer.detail()).as(landing).contains("landingUrl");
      }
      var image = api.postJson(
          "/api/v1/products",
          PRODUCT
              .formatted("odd-url")
              .replace("https://img.example/odd-url.png", "http://[1.2.3]/x"));
      assertThat(image.status()).isEqualTo(422);
      assertThat(image.detail()).contains("imageUrl");
      assertThat(api.get("/api/v1/products/odd-url").status()).isEqualTo(404);
    }

    @Test
    void an_invalid_product_is_a_422_that_names_the_field_and_writes_nothing() {
      api.postJson("/api/v1/products", PRODUCT.formatted("bad-1"));
      var negative = api.putJson(
          "/api/v1/products/bad-1", PRODUCT.formatted("bad-1").replace("\"49.90\"", "\"-3\""));
      assertThat(negative.status()).isEqualTo(422);
      assertThat(negative.detail()).contains("price");
      var badUrl = api.putJson(
          "/api/v1/products/bad-1",
          PRODUCT.formatted("bad-1").replace("https://shop.example", "javascript:alert(1)//"));
      assertThat(badUrl.status()).isEqualTo(422);
      assertThat(badUrl.detail()).contains("landingUrl");
      var missing = api.postJson("/api/v1/products", "{\"id\":\"bad-2\"}");
      assertThat(missing.status()).isEqualTo(422);
      assertThat(missing.detail()).contains("title");
      assertThat(api.get("/api/v1/products/bad-1").json().path("price").decimalValue())
          .isEqualByComparingTo("49.90");
      assertThat(api.get("/api/v1/products/bad-2").status()).isEqualTo(404);
    }

    @Test
    void one_answer_lists_every_problem_of_a_product() {
      var answer = api.postJson("/api/v1/products", """
          {"id":"bad id","title":"","price":"-1","currency":"EUX","imageUrl":"ftp://x/y","landingUrl":"https://s.example/x"}""");
      assertThat(answer.status()).isEqualTo(422);
      assertThat(answer.detail())
          .contains("currency must be an ISO 4217 code")
          .contains("imageUrl must be an absolute http(s) URL")
          .contains("id must be 1-64 characters")
          .contains("missing required field 'title'")
          .contains("price must be >= 0")
          .doesNotContain("missing required field 'currency'")
          .doesNotContain("missing required field 'imageUrl'");
    }

    @Test
    void a_body_naming_another_id_than_the_path_is_refused() {
      var answer = api.putJson("/api/v1/products/path-id", PRODUCT.formatted("body-id"));
      assertThat(answer.status()).isEqualTo(422);
      assertThat(answer.detail()).contains("differs from the id in the path");
      assertThat(api.get("/api/v1/products/path-id").status()).isEqualTo(404);
      assertThat(api.get("/api/v1/products/body-id").status()).isEqualTo(404);
    }

    @Test
    void a_json_array_where_an_object_belongs_is_refused() {
      assertThat(api.putJson("/api/v1/products/arr-1", "[1,2]").status()).isEqualTo(422);
    }

    @Test
    void pages_follow_the_next_cursor_and_bad_limits_are_400() {
      for (int i = 0; i < 5; i++) api.postJson("/api/v1/products", PRODUCT.formatted("page-" + i));
      var first = api.get("/api/v1/products?after=page-&limit=2").json();
      assertThat(first.path("items")).hasSize(2);
      String next = first.path("next").asString();
      var second = api.get("/api/v1/products?after=" + next + "&limit=2").json();
      assertThat(second.path("items").get(0).path("id").asString()).isGreaterThan(next);
      assertThat(api.get("/api/v1/products?limit=0").status()).isEqualTo(400);
      assertThat(api.get("/api/v1/products?limit=5000").detail()).contains("between 1 and 1000");
      assertThat(api.get("/api/v1/products?limit=ten").detail()).contains("whole number");
    }

    @Test
    void csv_import_imports_the_valid_rows_and_reports_each_bad_one_by_line() {
      String csv = """
          id,title,price,currency,imageUrl,landingUrl
          imp-1,Good One,9.99,EUR,https://i.example/1.png,https://s.example/1
          imp-2,,9.99,EUR,https://i.example/2.png,https://s.example/2
          imp-3,Bad Currency,9.99,EUX,https://i.example/3.png,https://s.example/3
          """;
      var answer = api.post("/api/v1/products/import", "text/csv", csv);
      assertThat(answer.status()).isEqualTo(200);
      var report = answer.json();
      assertThat(report.path("imported").asLong()).isEqualTo(1);
      assertThat(report.path("rejected").asLong()).isEqualTo(2);
      assertThat(report.path("errors").get(0).path("line").asLong()).isEqualTo(3);
      assertThat(report.path("errors").get(1).path("line").asLong()).isEqualTo(4);
      assertThat(report.path("errors").get(1).path("reason").asString()).contains("currency");
      assertThat(api.get("/api/v1/products/imp-1").status()).isEqualTo(200);
    }

    @Test
    void all_or_nothing_import_with_one_bad_row_imports_nothing() {
      String jsonl = """
          {"id":"aon-1","title":"A","price":"1.00","currency":"EUR","imageUrl":"https://i.example/a.png","landingUrl":"https://s.example/a"}
          {"id":"aon-2","title":"B","price":"oops","currency":"EUR","imageUrl":"https://i.example/b.png","landingUrl":"https://s.example/b"}
          """;
      var answer =
          api.post("/api/v1/products/import?mode=all-or-nothing", "application/x-ndjson", jsonl);
      assertThat(answer.status()).isEqualTo(422);
      assertThat(answer.json().path("report").path("committed").asBoolean()).isFalse();
      assertThat(answer.json().path("report").path("errors").get(0).path("line").asLong())
          .isEqualTo(2);
      assertThat(api.get("/api/v1/products/aon-1").status()).isEqualTo(404);
    }

    @Test
    void a_malformed_file_imports_nothing_and_says_why() {
      var answer =
          api.post("/api/v1/products/import", "text/csv", "id,title,colour_typo\nm-1,T,red\n");
      assertThat(answer.status()).isEqualTo(422);
      assertThat(answer.detail()).contains("colour_typo");
      assertThat(api.get("/api/v1/products/m-1").status()).isEqualTo(404);
    }

    @Test
    void import_edge_checks_type_mode_and_size() {
      assertThat(api.post("/api/v1/products/import", "application/xml", "<x/>").status())
          .isEqualTo(415);
      assertThat(
              api.post("/api/v1/products/import?mode=some", "text/csv", "id\n").detail())
          .contains("valid-rows or all-or-nothing");
      var big = new StringBuilder("id,title,price,currency,imageUrl,landingUrl\n");
      for (int i = 0; big.length() <= MAX_IMPORT; i++) {
        big.append("big-")
            .append(i)
            .append(",Title,1.00,EUR,https://i.example/x.png,https://s.example/x\n");
      }
      assertThat(api.postAskingFirst("/api/v1/products/import", "text/csv", big.toString())
              .status())
          .isEqualTo(413);
      assertThat(api.get("/api/v1/products/big-0").status()).isEqualTo(404);
    }
  }

  @Nested
  class Subscribers {
    private static final String SUBSCRIBER = """
        {"id":"%s","email":"%s","name":"Ada","locale":"de-DE","timeZone":"Europe/Berlin","consent":"subscribed"}""";

    @Test
    void concurrent_creates_of_one_subscriber_get_one_201_and_409_for_the_rest() {
      for (int round = 0; round < ROUNDS; round++) {
        String id = "race-" + round;
        // One email for all: a client retrying its create must not be told the email is taken.
        List<String> bodies = IntStream.range(0, WRITERS)
            .mapToObj(
                i -> SUBSCRIBER.formatted(id, id + "@example.com").replace("Ada", "Writer " + i))
            .toList();
        var answers = Race.together(bodies, body -> api.postJson(SUBSCRIBERS, body), BOUND);
        var created = onlyCreated(answers);
        assertThat(api.get(SUBSCRIBERS + "/" + id).json().path("name").asString())
            .isEqualTo(created.json().path("name").asString());
      }
    }

    @Test
    void create_read_and_an_email_taken_by_another_id_is_refused() {
      assertThat(
              api.postJson("/api/v1/subscribers", SUBSCRIBER.formatted("sub-1", "ada@example.com"))
                  .status())
          .isEqualTo(201);
      assertThat(api.get("/api/v1/subscribers/sub-1").json().path("timeZone").asString())
          .isEqualTo("Europe/Berlin");
      var taken =
          api.postJson("/api/v1/subscribers", SUBSCRIBER.formatted("sub-2", "ADA@example.com"));
      assertThat(taken.status()).isEqualTo(422);
      assertThat(taken.detail()).contains("email");
      assertThat(api.get("/api/v1/subscribers/sub-2").status()).isEqualTo(404);
    }

    @Test
    void invalid_values_are_named() {
      var zone = api.postJson(
          "/api/v1/subscribers",
          SUBSCRIBER.formatted("sub-z", "z@example.com").replace("Europe/Berlin", "Mars/Olympus"));
      assertThat(zone.status()).isEqualTo(422);
      assertThat(zone.detail()).contains("timeZone");
      var email =
          api.postJson("/api/v1/subscribers", SUBSCRIBER.formatted("sub-e", "not-an-email"));
      assertThat(email.status()).isEqualTo(422);
      assertThat(email.detail()).contains("email");
    }

    @Test
    void follows_need_a_known_subscriber_and_a_known_target_type() {
      api.postJson("/api/v1/subscribers", SUBSCRIBER.formatted("fol-1", "fol1@example.com"));
      assertThat(api.put("/api/v1/subscribers/fol-1/follows/brand/Velin", "application/json", "")
              .status())
          .isEqualTo(200);
      assertThat(api.get("/api/v1/subscribers/fol-1/follows").json().path("items"))
          .hasSize(1);
      assertThat(api.get("/api/v1/followers/brand/Velin")
              .json()
              .path("items")
              .get(0)
              .path("subscriberId")
              .asString())
          .isEqualTo("fol-1");
      assertThat(api.put("/api/v1/subscribers/nobody/follows/brand/Velin", "application/json", "")
              .status())
          .isEqualTo(404);
      var badType =
          api.put("/api/v1/subscribers/fol-1/follows/planet/Mars", "application/json", "");
      assertThat(badType.status()).isEqualTo(400);
      assertThat(badType.detail()).contains("brand");
      assertThat(api.delete("/api/v1/subscribers/fol-1/follows/brand/Velin").status())
          .isEqualTo(204);
      assertThat(api.delete("/api/v1/subscribers/fol-1/follows/brand/Velin").status())
          .isEqualTo(404);
    }

    @Test
    void follows_import_reports_unknown_subscribers_by_line() {
      api.postJson("/api/v1/subscribers", SUBSCRIBER.formatted("fi-1", "fi1@example.com"));
      var answer = api.post(
          "/api/v1/follows/import",
          "text/csv",
          "subscriberId,targetType,targetId\nfi-1,brand,Velin\nghost,brand,Velin\n");
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.json().path("imported").asLong()).isEqualTo(1);
      assertThat(answer.json().path("errors").get(0).path("line").asLong()).isEqualTo(3);
    }

    @Test
    void suppressions_take_a_known_reason() {
      assertThat(api.putJson("/api/v1/suppressions/bounced@example.com", "{\"reason\":\"bounce\"}")
              .status())
          .isEqualTo(200);
      assertThat(api.get("/api/v1/suppressions/BOUNCED@example.com").status()).isEqualTo(200);
      var bad = api.putJson("/api/v1/suppressions/x@example.com", "{\"reason\":\"because\"}");
      assertThat(bad.status()).isEqualTo(422);
      assertThat(bad.detail()).contains("reason");
      assertThat(api.get("/api/v1/suppressions/x@example.com").status()).isEqualTo(404);
    }
  }

  @Nested
  class Events {
    @Test
    void a_batch_with_one_bad_event_stores_none_and_names_it() {
      long before = activity.count();
      var answer = api.postJson("/api/v1/events", """
          [{"userId":"u1","type":"view","itemId":"p-1","timestamp":"2026-11-20T10:00:00Z","eventId":"ev-a"},
           {"userId":"u1","type":"teleport","itemId":"p-1","timestamp":"2026-11-20T10:00:00Z"}]""");
      assertThat(answer.status()).isEqualTo(422);
      assertThat(answer.detail()).startsWith("event 2:").contains("type");
      assertThat(activity.count()).isEqualTo(before);
    }

    @Test
    void json_lines_are_accepted_and_replays_are_counted_not_stored_twice() {
      String lines = """
          {"userId":"u2","type":"purchase","itemId":"p-2","timestamp":"2026-11-20T10:00:00Z","eventId":"ev-b","quantity":2,"price":"9.99"}
          {"userId":"u2","type":"view","itemId":"p-3","timestamp":"2026-11-20T10:01:00Z","eventId":"ev-c"}
          """;
      var first = api.post("/api/v1/events", "application/x-ndjson", lines);
      assertThat(first.status()).isEqualTo(202);
      assertThat(first.json().path("accepted").asLong()).isEqualTo(2);
      var replay = api.post("/api/v1/events", "application/x-ndjson", lines);
      assertThat(replay.json().path("duplicates").asLong()).isEqualTo(2);
      assertThat(replay.json().path("accepted").asLong()).isZero();
    }

    private static String event(String eventId) {
      return """
          {"userId":"u3","type":"click","itemId":"p-4","timestamp":"2026-11-20T11:00:00Z","eventId":"%s"}""".formatted(eventId);
    }

    @Test
    void an_event_id_repeated_in_a_request_or_replayed_later_is_a_duplicate_stored_once() {
      long before = activity.count();
      var first = api.postJson(
          "/api/v1/events", "[%s,%s,%s]".formatted(event("ev-r1"), event("ev-r2"), event("ev-r1")));
      assertThat(first.status()).isEqualTo(202);
      assertThat(first.json().path("accepted").asLong()).isEqualTo(2);
      assertThat(first.json().path("duplicates").asLong()).isEqualTo(1);

      var later =
          api.postJson("/api/v1/events", "[%s,%s]".formatted(event("ev-r2"), event("ev-r3")));
      assertThat(later.json().path("accepted").asLong()).isEqualTo(1);
      assertThat(later.json().path("duplicates").asLong()).isEqualTo(1);
      assertThat(activity.count()).isEqualTo(before + 3);
    }

    @Test
    void every_bad_event_is_named_by_its_position_and_none_is_stored() {
      long before = activity.count();
      var array = api.postJson(
          "/api/v1/events",
          "[%s,%s,%s,%s]"
              .formatted(
                  event("ev-p1"),
                  event("ev-p2").replace("\"click\"", "\"wave\""),
                  event("ev-p3"),
                  event("ev-p4").replace("\"u3\"", "42")));
      assertThat(array.status()).isEqualTo(422);
      assertThat(array.detail())
          .startsWith("event 2: type must be")
          .contains("; event 4: userId must be a string, got a number")
          .doesNotContain("event 1", "event 3");

      String lines = event("ev-p5") + "\n\n" + event("ev-p6").replace("2026-11-20", "20.11.2026")
          + "\n" + event("ev-p7") + "\n";
      var jsonLines = api.post("/api/v1/events", "application/x-ndjson", lines);
      assertThat(jsonLines.status()).isEqualTo(422);
      assertThat(jsonLines.detail())
          .startsWith("line 3: timestamp must be")
          .doesNotContain("line 1");
      assertThat(activity.count()).isEqualTo(before);
    }

    @Test
    void json_lines_may_be_larger_than_a_json_body_up_to_the_import_limit() {
      long before = activity.count();
      var events = new ArrayList<String>();
      for (int i = 0; events.size() * 110 < 16 * 1024; i++) events.add(event("ev-big-" + i));

      var asArray = api.postAskingFirst(
          "/api/v1/events", "application/json", "[" + String.join(",", events) + "]");
      assertThat(asArray.status()).isEqualTo(413);
      var asLines = api.post("/api/v1/events", "application/x-ndjson", String.join("\n", events));
      assertThat(asLines.status()).isEqualTo(202);
      assertThat(asLines.json().path("accepted").asLong()).isEqualTo(events.size());

      String tooMany = (event("ev-huge") + "\n").repeat((int) (MAX_IMPORT / 100));
      assertThat(api.postAskingFirst("/api/v1/events", "application/x-ndjson", tooMany)
              .status())
          .isEqualTo(413);
      assertThat(activity.count()).isEqualTo(before + events.size());
    }

    @Test
    void something_other_than_an_array_or_lines_is_refused() {
      assertThat(api.postJson("/api/v1/events", "{\"userId\":\"u\"}").status()).isEqualTo(422);
      assertThat(api.post("/api/v1/events", "text/plain", "hello").status()).isEqualTo(415);
      assertThat(api.postJson("/api/v1/events", "[").status()).isEqualTo(400);
    }
  }

  @Nested
  class Markets {
    @Test
    void a_market_is_put_read_and_listed_and_bad_fields_are_named_in_a_422() {
      var put = api.putJson(
          "/api/v1/markets/GB",
          "{\"currency\":\"GBP\",\"locale\":\"en-GB\",\"countries\":[\"GB\",\"IE\"],\"default\":true}");
      assertThat(put.status()).isEqualTo(200);
      assertThat(api.get("/api/v1/markets/GB").json().path("locale").asString()).isEqualTo("en-GB");
      assertThat(api.get("/api/v1/markets").json().path("items").size()).isPositive();
      assertThat(api.get("/api/v1/markets/NOPE").status()).isEqualTo(404);

      var bad = api.putJson(
          "/api/v1/markets/x",
          "{\"currency\":\"POUNDS\",\"locale\":\"@@\",\"countries\":[\"ZZ\"]}");
      assertThat(bad.status()).isEqualTo(422);
      assertThat(bad.detail())
          .contains("code")
          .contains("currency")
          .contains("locale")
          .contains("countries");
      assertThat(fields(bad))
          .containsExactlyInAnyOrder("code", "currency", "locale", "countries[0]");
    }

    @Test
    void a_products_prices_are_replaced_whole_and_an_unknown_market_is_named() {
      api.putJson("/api/v1/markets/US", "{\"currency\":\"USD\",\"locale\":\"en-US\"}");
      assertThat(api.postJson(PRODUCTS, PRODUCT.formatted("priced-1")).status()).isEqualTo(201);

      var priced = api.putJson("/api/v1/products/priced-1/prices", "{\"US\":\"54.99\"}");
      assertThat(priced.status()).isEqualTo(200);
      assertThat(api.get("/api/v1/products/priced-1/prices").json().path("US").asString())
          .isEqualTo("54.99");

      var unknown =
          api.putJson("/api/v1/products/priced-1/prices", "{\"XX\":\"1.00\",\"US\":\"1.001\"}");
      assertThat(unknown.status()).isEqualTo(422);
      assertThat(unknown.detail()).contains("prices.XX").contains("prices.US");
      assertThat(fields(unknown)).containsExactlyInAnyOrder("prices.XX", "prices.US");
      assertThat(api.get("/api/v1/products/priced-1/prices").json().path("US").asString())
          .isEqualTo("54.99");
      assertThat(api.putJson("/api/v1/products/none/prices", "{}").status()).isEqualTo(404);

      // a short text can be an enormous number: refused by its digits, never handed to the database
      for (String huge :
          List.of("\"1e999999\"", "1e999999", "\"123456789012345678901234567890123\"")) {
        var refused = api.putJson("/api/v1/products/priced-1/prices", "{\"US\":" + huge + "}");
        assertThat(refused.status()).as(huge).isEqualTo(422);
        assertThat(refused.detail()).as(huge).contains("prices.US");
      }
    }

    @Test
    void a_subscriber_names_a_market_by_a_valid_code_or_clears_it() {
      assertThat(api.postJson(
                  SUBSCRIBERS,
                  "{\"id\":\"placed-1\",\"email\":\"placed-1@example.com\",\"country\":\"DE\"}")
              .status())
          .isEqualTo(201);

      assertThat(api.putJson("/api/v1/subscribers/placed-1/market", "{\"market\":\"gb\"}")
              .status())
          .isEqualTo(422);
      assertThat(api.putJson("/api/v1/subscribers/placed-1/market", "{\"market\":\"GB\"}")
              .status())
          .isEqualTo(200);
      assertThat(api.get("/api/v1/subscribers/placed-1/market")
              .json()
              .path("market")
              .asString())
          .isEqualTo("GB");
      api.putJson("/api/v1/subscribers/placed-1/market", "{\"market\":null}");
      assertThat(api.get("/api/v1/subscribers/placed-1/market")
              .json()
              .path("market")
              .isNull())
          .isTrue();
      assertThat(api.get("/api/v1/subscribers/nobody/market").status()).isEqualTo(404);
    }

    @Test
    void the_subscriber_json_carries_the_market_both_ways_and_a_write_without_it_keeps_it() {
      String body = "{\"id\":\"placed-2\",\"email\":\"placed-2@example.com\",\"market\":\"GB\"}";
      assertThat(api.postJson(SUBSCRIBERS, body).status()).isEqualTo(201);
      assertThat(api.get(SUBSCRIBERS + "/placed-2").json().path("market").asString())
          .isEqualTo("GB");
      assertThat(api.get("/api/v1/subscribers/placed-2/market")
              .json()
              .path("market")
              .asString())
          .isEqualTo("GB");

      var bad = api.putJson(
          SUBSCRIBERS + "/placed-2",
          "{\"id\":\"placed-2\",\"email\":\"placed-2@example.com\",\"market\":\"g b\"}");
      assertThat(bad.status()).isEqualTo(422);
      assertThat(bad.detail()).contains("market must be");
      assertThat(fields(bad)).containsExactly("market");

      assertThat(api.putJson(
                  SUBSCRIBERS + "/placed-2",
                  "{\"id\":\"placed-2\",\"email\":\"placed-2@example.com\",\"name\":\"Pat\"}")
              .status())
          .isEqualTo(200);
      var kept = api.get(SUBSCRIBERS + "/placed-2").json();
      assertThat(kept.path("market").asString()).isEqualTo("GB");
      assertThat(kept.path("name").asString()).isEqualTo("Pat");

      api.putJson(
          SUBSCRIBERS + "/placed-2",
          "{\"id\":\"placed-2\",\"email\":\"placed-2@example.com\",\"market\":\"DE\"}");
      assertThat(api.get("/api/v1/subscribers/placed-2/market")
              .json()
              .path("market")
              .asString())
          .isEqualTo("DE");
    }
  }

  @Nested
  class Journeys {
    /** The one campaign these journeys' sends may name. */
    static final long CAMPAIGN = 11;

    private static final String JOURNEYS = "/api/v1/journeys";
    private static final String CART = """
        {"name": "%s", "trigger": {"type": "did", "activity": "add_to_cart", "within": "PT1H"},
         "entry": {"reentryAfter": "P3D"},
         "steps": [{"id": "hour", "type": "wait", "for": "%s", "next": "reminder"},
                   {"id": "reminder", "type": "send", "campaignId": 11}],
         "goal": "purchase", "holdOut": 0.1}""";

    @Test
    void saved_read_edited_as_a_new_version_and_the_old_version_still_read() {
      var created = api.postJson(JOURNEYS, CART.formatted("Abandoned cart", "PT1H"));
      assertThat(created.status()).isEqualTo(201);
      long id = created.json().path("id").asLong();
      assertThat(created.json().path("version").asInt()).isEqualTo(1);

      var edited = api.putJson(JOURNEYS + "/" + id, CART.formatted("Abandoned cart", "PT30M"));
      assertThat(edited.status()).isEqualTo(200);
      assertThat(edited.json().path("version").asInt()).isEqualTo(2);

      assertThat(api.get(JOURNEYS + "/" + id)
              .json()
              .path("steps")
              .path(0)
              .path("for")
              .asString())
          .isEqualTo("PT30M");
      assertThat(api.get(JOURNEYS + "/" + id + "/versions/1")
              .json()
              .path("steps")
              .path(0)
              .path("for")
              .asString())
          .isEqualTo("PT1H");
      assertThat(api.get(JOURNEYS).json().path("items").toString())
          .contains("\"id\":" + id)
          .contains("\"version\":2");
    }

    @Test
    void a_journey_or_version_that_does_not_exist_is_a_404() {
      assertThat(api.get(JOURNEYS + "/987654321").status()).isEqualTo(404);
      assertThat(api.get(JOURNEYS + "/not-a-number").status()).isEqualTo(404);
      assertThat(
              api.putJson(JOURNEYS + "/987654321", CART.formatted("X", "PT1H")).status())
          .isEqualTo(404);
      long id =
          api.postJson(JOURNEYS, CART.formatted("Y", "PT1H")).json().path("id").asLong();
      assertThat(api.get(JOURNEYS + "/" + id + "/versions/2").status()).isEqualTo(404);
      assertThat(api.get(JOURNEYS + "/" + id + "/versions/zero").status()).isEqualTo(404);
    }

    @Test
    void a_bad_journey_gets_a_422_that_names_each_field_and_saves_nothing() {
      int before = api.get(JOURNEYS).json().path("items").size();
      var refused = api.postJson(JOURNEYS, """
          {"name": "Bad", "trigger": {"type": "did", "activity": "cart", "within": "soon"},
           "steps": [{"id": "a", "type": "send", "campaignId": 0, "next": "b"}]}""");
      assertThat(refused.status()).isEqualTo(422);
      assertThat(fields(refused))
          .containsExactlyInAnyOrder("trigger.within", "steps[0].campaignId");
      assertThat(api.get(JOURNEYS).json().path("items").size()).isEqualTo(before);
    }

    @Test
    void a_send_of_a_campaign_that_does_not_exist_is_refused_by_its_step() {
      var refused = api.postJson(JOURNEYS, """
          {"name": "Lost", "trigger": {"type": "signed_up"},
           "steps": [{"id": "hello", "type": "send", "campaignId": 12}]}""");
      assertThat(refused.status()).isEqualTo(422);
      assertThat(fields(refused)).containsExactly("steps[0].campaignId");
    }

    @Test
    void activated_paused_drained_and_activated_again_each_move_said() {
      long id = api.postJson(JOURNEYS, CART.formatted("States", "PT1H"))
          .json()
          .path("id")
          .asLong();
      assertThat(api.get(JOURNEYS + "/" + id).json().path("state").asString()).isEqualTo("DRAFT");
      assertThat(api.postJson(JOURNEYS + "/" + id + "/pause", "").status())
          .as("a draft does not pause")
          .isEqualTo(409);
      for (String[] move : new String[][] {
        {"activate", "ACTIVE"}, {"pause", "PAUSED"}, {"drain", "DRAINING"}, {"activate", "ACTIVE"}
      }) {
        var answer = api.postJson(JOURNEYS + "/" + id + "/" + move[0], "");
        assertThat(answer.status()).as(move[0] + ": " + answer.body()).isEqualTo(200);
        assertThat(answer.json().path("state").asString()).isEqualTo(move[1]);
      }
      assertThat(api.postJson(JOURNEYS + "/987654321/activate", "").status()).isEqualTo(404);
      var figures = api.get(JOURNEYS + "/" + id + "/figures").json();
      assertThat(figures.path("state").asString()).isEqualTo("ACTIVE");
      assertThat(figures.path("entries").asLong()).isZero();
      assertThat(figures.path("steps"))
          .extracting(step -> step.path("step").asString())
          .containsExactly("hour", "reminder");
      assertThat(figures.path("lift").path("goal").asString()).isEqualTo("purchase");
      assertThat(figures.path("lift").path("heldOut").path("entrants").asLong()).isZero();
    }

    @Test
    void the_list_is_paged_newest_first() {
      long older = api.postJson(JOURNEYS, CART.formatted("Older", "PT1H"))
          .json()
          .path("id")
          .asLong();
      long newer = api.postJson(JOURNEYS, CART.formatted("Newer", "PT1H"))
          .json()
          .path("id")
          .asLong();
      var first = api.get(JOURNEYS + "?limit=1").json();
      assertThat(first.path("items").path(0).path("id").asLong()).isEqualTo(newer);
      assertThat(first.path("items").path(0).path("state").asString()).isEqualTo("DRAFT");
      var second =
          api.get(JOURNEYS + "?limit=1&after=" + first.path("next").asString()).json();
      assertThat(second.path("items").path(0).path("id").asLong()).isEqualTo(older);
      assertThat(api.get(JOURNEYS + "?after=soon").status()).isEqualTo(422);
    }

    @Test
    void a_ready_made_journey_is_listed_and_made_as_a_draft_with_its_emails() {
      var listed = api.get("/api/v1/journey-templates").json().path("items");
      assertThat(listed)
          .extracting(item -> item.path("key").asString())
          .contains(
              "welcome",
              "abandoned_cart",
              "browse_abandonment",
              "back_in_stock",
              "price_drop",
              "post_purchase",
              "win_back");
      var made = api.postJson("/api/v1/journey-templates/abandoned_cart", """
          {"from": {"email": "news@shop.test", "name": "Shop"}}""");
      assertThat(made.status()).as(made.body()).isEqualTo(201);
      assertThat(made.json().path("state").asString()).isEqualTo("DRAFT");
      assertThat(made.json().path("goal").asString()).isEqualTo("purchase");
      assertThat(made.json().path("steps").toString()).contains("\"campaignId\":" + CAMPAIGN);
      var refused = api.postJson("/api/v1/journey-templates/abandoned_cart", """
          {"from": {"email": "not an address"}}""");
      assertThat(refused.status()).isEqualTo(422);
      assertThat(fields(refused)).containsExactly("from.email");
      assertThat(api.postJson("/api/v1/journey-templates/teleport", "{}").status())
          .isEqualTo(404);
    }

    @Test
    void the_reader_limits_are_read_set_and_refused_by_field() {
      assertThat(api.get("/api/v1/reader-limits").json().path("perDay").asInt()).isPositive();
      var refused = api.putJson("/api/v1/reader-limits", """
          {"perDay": 0, "perWeek": 2, "quietHours": {"from": "late", "until": "08:00"}}""");
      assertThat(refused.status()).isEqualTo(422);
      assertThat(fields(refused)).containsExactlyInAnyOrder("perDay", "quietHours.from");
      var set = api.putJson("/api/v1/reader-limits", """
          {"perDay": 2, "perWeek": 5, "quietHours": {"from": "21:00", "until": "08:00"}}""");
      assertThat(set.status()).as(set.body()).isEqualTo(200);
      var read = api.get("/api/v1/reader-limits").json();
      assertThat(read.path("perWeek").asInt()).isEqualTo(5);
      assertThat(read.path("quietHours").path("from").asString()).isEqualTo("21:00");
    }
  }
}
