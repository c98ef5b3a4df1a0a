package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.audience.FollowService;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.RecordingSends;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.message.TokenCodec;
import dev.tidings.notify.Notifications;
import dev.tidings.optimize.ItemConfigurations;
import dev.tidings.recommend.blend.LiveRecommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.audience.AudienceRoutes;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import dev.tidings.web.catalog.CatalogRoutes;
import dev.tidings.web.notify.NotifyRoutes;
import dev.tidings.web.optimize.OptimizeRoutes;
import dev.tidings.web.recommend.RecommendRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Whatever a client sends at the JSON and HTTP edge (a NUL, a number past any range, a value of the
 * wrong type, an id that names nobody) is a 4xx naming what is wrong, never a 500 and never silently
 * dropped: through a real server and a real (embedded) PostgreSQL.
 */
@StartsServers
class ClientInputEdgeTest {
  private static final String KEY = "edge-input-test-key-0123456789";
  private static final String PRODUCT = """
      {"id":"%s","title":"%s","brand":"Velin","category":"men/shirts","price":"49.90","currency":"EUR",
       "imageUrl":"https://img.example/p.png","landingUrl":"https://shop.example/p","available":true}""";
  private static final String CAMPAIGN = """
      {"name":"Autumn","from":{"email":"news@shop.example","name":"Shop"},"subject":"Hi",
       "html":"<html><body><p>Hello</p></body></html>","text":"Hello"%s}""";
  private static final String CONTENT = """
      {"type":"article","title":"Opening night"%s}""";

  private static Database database;
  private static HttpServer server;
  private static ApiClient api;
  private static RecordingSends sends;
  private static LiveRecommender recommender;

  @BeforeAll
  static void start() {
    database = TestDatabases.embedded();
    var jdbi = database.jdbi();
    InstantSource clock = InstantSource.system();
    sends = new RecordingSends();
    var subscribers = new SubscriberService(jdbi, clock);
    var suppressions = new SuppressionService(jdbi, clock);
    recommender = LiveRecommender.of(
        jdbi, clock, LiveRecommender.Options.defaults(), new SimpleMeterRegistry());
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(
            new CatalogRoutes(new CatalogService(jdbi, clock), 8 * 1024, 64 * 1024),
            new AudienceRoutes(
                subscribers,
                new FollowService(jdbi, clock),
                suppressions,
                new SuppressionChanges(new SimpleMeterRegistry()),
                clock,
                8 * 1024,
                64 * 1024),
            new NotifyRoutes(
                new Notifications(
                    jdbi,
                    clock,
                    Notifications.ProductShelf.ALL_AVAILABLE,
                    new SimpleMeterRegistry()),
                8 * 1024),
            new OptimizeRoutes(new ItemConfigurations(jdbi, clock), 8 * 1024),
            new RecommendRoutes(recommender, clock, Duration.ofMillis(250), 8 * 1024),
            new CampaignRoutes(
                new CampaignService(
                    jdbi, sends, new AudienceQuery(jdbi, clock), clock, new SimpleMeterRegistry()),
                new CampaignEmails(
                    jdbi,
                    subscribers,
                    suppressions,
                    new CampaignRenderer(
                        URI.create("https://mail.shop.example"),
                        TokenCodec.of(new Secret("edge-input-secret-0123456789")),
                        clock),
                    clock,
                    new SimpleMeterRegistry()),
                64 * 1024,
                CampaignHeadlines.NONE)));
    api = new ApiClient(server.port(), KEY);
  }

  @AfterAll
  static void stop() {
    server.close();
    recommender.close();
    database.close();
  }

  private static void assertRefused(ApiClient.Answer answer, String... named) {
    assertThat(answer.status()).as(answer.body()).isBetween(400, 499);
    assertThat(answer.json().path("error").asString()).as(answer.body()).isNotEmpty();
    assertThat(answer.detail()).as(answer.body()).contains(named);
  }

  private static long campaign(String extra) {
    var created = api.postJson("/api/v1/campaigns", CAMPAIGN.formatted(extra));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().path("id").asLong();
  }

  @Test
  void a_nul_in_any_json_string_is_a_422_naming_the_field_and_nothing_is_stored() {
    var product = api.postJson("/api/v1/products", PRODUCT.formatted("nul-1", "Eve\\u0000X"));
    assertRefused(product, "title", "NUL");
    assertThat(product.status()).isEqualTo(422);
    assertThat(api.get("/api/v1/products/nul-1").status()).isEqualTo(404);

    var subscriber = api.postJson(
        "/api/v1/subscribers",
        "{\"id\":\"nul-s\",\"email\":\"e@x.example\",\"name\":\"Eve\\u0000X\"}");
    assertRefused(subscriber, "name", "NUL");

    var nested = api.postJson(
        "/api/v1/campaigns",
        CAMPAIGN.formatted(",\"audience\":{\"type\":\"segment\",\"conditions\":"
            + "[{\"type\":\"field\",\"field\":\"country\",\"values\":[\"DE\",\"F\\u0000R\"]}]}"));
    assertRefused(nested, "audience.conditions[0].values[1]", "NUL");
  }

  @Test
  void a_lone_surrogate_is_refused_like_a_nul() {
    assertRefused(
        api.postJson("/api/v1/products", PRODUCT.formatted("sur-1", "half \\ud83d here")),
        "title",
        "surrogate");
  }

  @Test
  void a_nul_in_a_path_or_query_parameter_is_a_400_not_a_500() {
    assertRefused(api.get("/api/v1/products/%00"), "path", "NUL");
    assertRefused(api.get("/api/v1/products?after=%00"), "after", "NUL");
    assertRefused(api.get("/api/v1/subscribers?after=a%00b"), "after", "NUL");
    assertRefused(api.get("/api/v1/campaigns/1/preview?subscriber=%00"), "subscriber", "NUL");
    assertThat(api.get("/api/v1/products?after=%00").status()).isEqualTo(400);
  }

  @Test
  void campaign_numbers_past_their_range_are_a_422_naming_the_field() {
    assertRefused(
        api.postJson("/api/v1/campaigns", CAMPAIGN.formatted(",\"slots\":1e30")), "slots");
    assertRefused(
        api.postJson(
            "/api/v1/campaigns", CAMPAIGN.formatted(",\"slots\":1000000000000000000000000000000")),
        "slots");
    assertRefused(
        api.postJson("/api/v1/campaigns", CAMPAIGN.formatted(",\"priority\":1e30")), "priority");
    assertRefused(
        api.postJson("/api/v1/campaigns", CAMPAIGN.formatted(",\"ratePerSecond\":1e400")),
        "ratePerSecond");
    assertRefused(
        api.postJson(
            "/api/v1/campaigns",
            CAMPAIGN.formatted(",\"audience\":{\"type\":\"segment\",\"conditions\":[{\"type\":"
                + "\"near\",\"latitude\":1e400,\"longitude\":0,\"radiusKm\":10}]}")),
        "audience.conditions[0].latitude");
    assertRefused(
        api.postJson(
            "/api/v1/campaigns",
            CAMPAIGN.formatted(",\"audience\":{\"type\":\"segment\",\"conditions\":[{\"type\":"
                + "\"opened\",\"campaignId\":100000000000000000000000000}]}")),
        "audience.conditions[0].campaignId");
    assertRefused(
        api.postJson(
            "/api/v1/campaigns",
            CAMPAIGN.formatted(",\"experiment\":{\"allocation\":\"ab\",\"metric\":\"human_open\","
                + "\"testShare\":1e400,\"variants\":[{\"name\":\"a\"},{\"name\":\"b\"}]}")),
        "testShare");
  }

  @Test
  void content_and_recommender_numbers_past_their_range_are_a_422_naming_the_field() {
    assertRefused(
        api.putJson(
            "/api/v1/content/c-lat",
            CONTENT.formatted(",\"location\":{\"latitude\":1e400,\"longitude\":0}")),
        "latitude");
    assertRefused(
        api.putJson(
            "/api/v1/content/c-lon",
            CONTENT.formatted(",\"location\":{\"latitude\":0,\"longitude\":-1e400}")),
        "longitude");
    assertRefused(
        api.putJson("/api/v1/content/c-radius", CONTENT.formatted(",\"radiusKm\":1e400")),
        "radiusKm");
    assertRefused(api.putJson("/api/v1/recommenders/popularity", "{\"weight\":1e400}"), "weight");
    assertRefused(api.putJson("/api/v1/recommenders/blend", "{\"brandCap\":1e400}"), "brandCap");
    assertThat(api.get("/api/v1/content/c-lat").status()).isEqualTo(404);
  }

  @Test
  void a_value_of_the_wrong_type_is_a_422_naming_the_field_and_the_type_never_dropped() {
    var url = api.putJson("/api/v1/content/c-url", CONTENT.formatted(",\"url\":{}"));
    assertRefused(url, "url", "string");
    assertThat(api.get("/api/v1/content/c-url").status()).isEqualTo(404);
    assertRefused(
        api.putJson("/api/v1/content/c-title", "{\"type\":\"article\",\"title\":5}"),
        "title",
        "string");
    assertRefused(
        api.putJson("/api/v1/content/c-starts", CONTENT.formatted(",\"startsAt\":{}")), "startsAt");
    assertRefused(
        api.putJson("/api/v1/content/c-type", "{\"type\":[\"article\"],\"title\":\"x\"}"),
        "type",
        "string");
    assertRefused(
        api.postJson(
            "/api/v1/campaigns",
            CAMPAIGN.formatted(",\"audience\":{\"type\":\"segment\",\"conditions\":[{\"type\":"
                + "\"follows\",\"targetType\":\"brand\",\"targetId\":5}]}")),
        "audience.conditions[0].targetId",
        "string");
    assertRefused(
        api.postJson("/api/v1/campaigns", CAMPAIGN.formatted(",\"slots\":\"3\"")), "slots");
  }

  @Test
  void triggering_a_campaign_for_a_subscriber_that_does_not_exist_is_a_404_and_queues_nothing() {
    long id = campaign("");
    int before = sends.triggered.size();
    var answer =
        api.postJson("/api/v1/campaigns/" + id + "/trigger", "{\"subscriberId\":\"nobody-here\"}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(404);
    assertThat(answer.detail()).contains("nobody-here");
    assertThat(sends.triggered).hasSize(before);
  }

  @Test
  void a_preview_for_a_subscriber_outside_the_segment_would_not_send_and_says_why() {
    assertThat(api.postJson(
                "/api/v1/subscribers",
                "{\"id\":\"prev-fr\",\"email\":\"prev-fr@x.example\",\"country\":\"FR\"}")
            .status())
        .isEqualTo(201);
    long id = campaign(",\"audience\":{\"type\":\"segment\",\"conditions\":"
        + "[{\"type\":\"field\",\"field\":\"country\",\"values\":[\"DE\"]}]}");
    var preview = api.get("/api/v1/campaigns/" + id + "/preview?subscriber=prev-fr");
    assertThat(preview.status()).as(preview.body()).isEqualTo(200);
    assertThat(preview.json().path("wouldSend").asBoolean()).isFalse();
    assertThat(preview.json().path("skipped").asString()).contains("segment");

    long everyone = campaign("");
    var included = api.get("/api/v1/campaigns/" + everyone + "/preview?subscriber=prev-fr");
    assertThat(included.json().path("wouldSend").asBoolean())
        .as(included.body())
        .isTrue();
  }
}
