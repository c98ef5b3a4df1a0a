package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.RecordingSends;
import dev.tidings.config.Secret;
import dev.tidings.message.TokenCodec;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.audience.AudienceRoutes;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every way an address enters through the API (subscribers, their CSV and JSON Lines imports,
 * suppressions, a campaign's sender and reply-to) takes exactly one bare address and stores it
 * normalised; anything a header could read as more, or as another address, is a 422 naming the field.
 */
@StartsServers
class EmailAddressApiTest {
  private static final String KEY = "address-api-test-key-0123456789";
  private static final String SUBSCRIBERS = "/api/v1/subscribers";
  private static final String CAMPAIGNS = "/api/v1/campaigns";
  private static Database database;
  private static HttpServer server;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    database = TestDatabases.embedded();
    InstantSource clock = InstantSource.system();
    var subscribers = new SubscriberService(database.jdbi(), clock);
    var suppressions = new SuppressionService(database.jdbi(), clock);
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(
            new AudienceRoutes(
                subscribers,
                new FollowService(database.jdbi(), clock),
                suppressions,
                new SuppressionChanges(new SimpleMeterRegistry()),
                clock,
                8 * 1024,
                64 * 1024),
            new CampaignRoutes(
                new CampaignService(
                    database.jdbi(),
                    new RecordingSends(),
                    new AudienceQuery(database.jdbi(), clock),
                    clock,
                    new SimpleMeterRegistry()),
                new CampaignEmails(
                    database.jdbi(),
                    subscribers,
                    suppressions,
                    new CampaignRenderer(
                        URI.create("http://localhost:8080"),
                        TokenCodec.of(new Secret("address-api-secret-0123456789")),
                        clock),
                    clock,
                    new SimpleMeterRegistry()),
                8 * 1024,
                CampaignHeadlines.NONE)));
    api = new ApiClient(server.port(), KEY);
  }

  @AfterAll
  static void stop() {
    server.close();
    database.close();
  }

  private static String subscriber(String id, String email) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("id", id);
    body.put("email", email);
    body.put("name", "Angle");
    return body.toString();
  }

  private static String path(String email) {
    return URLEncoder.encode(email, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a>,<victim@evil.example",
        "a@b,c@d",
        "a@b.example,c@d.example",
        "\"x\"@y.example",
        "\"x\"@y",
        "a@b.example>",
        "a@b>",
        "<a@b.example>",
        "<a@b>",
        "Angle <a@b.example>",
        "a@b.example (c)",
        "a@b (c)",
        "a@b.example\r\nBcc: victim@evil.example",
        "a@b.example\nX: y",
        "a\u0000@b.example",
        "a@[127.0.0.1]",
        "a@127.0.0.1",
        "a@localhost",
        "jörg@example.com",
        "a..b@example.com",
        "ann@-shop.example",
        "LOCAL_TOO_LONG",
        "LABEL_TOO_LONG",
        "WHOLE_TOO_LONG"
      })
  void a_subscriber_with_anything_but_one_bare_address_is_refused_naming_email(String given) {
    String email = switch (given) {
      case "LOCAL_TOO_LONG" -> "a".repeat(65) + "@example.com";
      case "LABEL_TOO_LONG" -> "ann@" + "b".repeat(64) + ".example";
      case "WHOLE_TOO_LONG" ->
        "a".repeat(64) + "@" + ("b".repeat(60) + ".").repeat(3) + "c".repeat(10);
      default -> given;
    };
    String id = "s-hostile-" + Integer.toHexString(given.hashCode());

    var created = api.postJson(SUBSCRIBERS, subscriber(id, email));

    assertThat(created.status()).as(created.body()).isEqualTo(422);
    assertThat(created.detail()).startsWith("email ").doesNotContain("\r").doesNotContain("\n");
    assertThat(api.get(SUBSCRIBERS + "/" + id).status()).isEqualTo(404);
    assertThat(api.putJson(SUBSCRIBERS + "/" + id, subscriber(id, email)).status())
        .isEqualTo(422);
  }

  @Test
  void an_idn_address_is_accepted_and_stored_in_punycode_with_its_domain_in_lower_case() {
    var created = api.postJson(SUBSCRIBERS, subscriber("s-idn", "Kunde@BÜCHER.Example"));

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().path("email").asString()).isEqualTo("Kunde@xn--bcher-kva.example");
    assertThat(api.get(SUBSCRIBERS + "/s-idn").json().path("email").asString())
        .isEqualTo("Kunde@xn--bcher-kva.example");
  }

  @Test
  void a_csv_import_reports_each_hostile_address_by_line_and_imports_the_rest() {
    String csv = "id,email,name\n"
        + "csv-ok,ok@example.com,Ok\n"
        + "csv-angle,\"a>,<victim@evil.example\",Angle\n"
        + "csv-quoted,\"\"\"x\"\"@y.example\",Quoted\n"
        + "csv-literal,a@[127.0.0.1],Literal\n"
        + "csv-idn,leser@bücher.example,Idn\n";

    var answer = api.post(SUBSCRIBERS + "/import", "text/csv", csv);

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    var report = answer.json();
    assertThat(report.path("imported").asLong()).as(answer.body()).isEqualTo(2);
    assertThat(report.path("rejected").asLong()).isEqualTo(3);
    var errors = report.path("errors");
    assertThat(List.of(errors.get(0), errors.get(1), errors.get(2)))
        .extracting(error -> error.path("line").asLong())
        .containsExactly(3L, 4L, 5L);
    errors.forEach(error -> assertThat(error.path("reason").asString()).contains("email "));
    assertThat(api.get(SUBSCRIBERS + "/csv-angle").status()).isEqualTo(404);
    assertThat(api.get(SUBSCRIBERS + "/csv-idn").json().path("email").asString())
        .isEqualTo("leser@xn--bcher-kva.example");
  }

  @Test
  void a_json_lines_import_refuses_the_smuggling_address_by_line() {
    String jsonl = subscriber("jl-ok", "jl@example.com") + "\n"
        + subscriber("jl-angle", "a>,<victim@evil.example") + "\n";

    var answer = api.post(SUBSCRIBERS + "/import", "application/x-ndjson", jsonl);

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.json().path("imported").asLong()).isEqualTo(1);
    assertThat(answer.json().path("errors").get(0).path("line").asLong()).isEqualTo(2);
    assertThat(answer.json().path("errors").get(0).path("reason").asString()).startsWith("email ");
  }

  @Test
  void suppressions_take_one_bare_address_stored_normalised_and_match_any_case_or_idn_form() {
    var hostile = api.putJson(
        "/api/v1/suppressions/" + path("a>,<v@evil.example"), "{\"reason\":\"manual\"}");
    assertThat(hostile.status()).as(hostile.body()).isEqualTo(422);
    assertThat(hostile.detail()).startsWith("email ");

    var stored = api.putJson(
        "/api/v1/suppressions/" + path("Victim@BÜCHER.example"), "{\"reason\":\"bounce\"}");
    assertThat(stored.status()).as(stored.body()).isEqualTo(200);
    assertThat(stored.json().path("email").asString()).isEqualTo("Victim@xn--bcher-kva.example");
    assertThat(api.get("/api/v1/suppressions/" + path("victim@bücher.EXAMPLE")).status())
        .isEqualTo(200);
    assertThat(api.delete("/api/v1/suppressions/" + path("VICTIM@xn--bcher-kva.example"))
            .status())
        .isEqualTo(204);
  }

  private static String campaign(String from, String replyTo) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("name", "Addresses");
    body.putObject("from").put("email", from).put("name", "Shop, \"the\" <best>");
    body.put("replyTo", replyTo);
    body.put("subject", "Hi");
    body.put("html", "<p>Hi</p>");
    body.put("text", "Hi");
    return body.toString();
  }

  @Test
  void a_campaign_sender_or_reply_to_that_is_not_one_bare_address_is_refused_naming_the_field() {
    var badFrom =
        api.postJson(CAMPAIGNS, campaign("news@shop.example,v@evil.example", "c@shop.example"));
    assertThat(badFrom.status()).as(badFrom.body()).isEqualTo(422);
    assertThat(badFrom.detail()).contains("from.email ");

    var badReplyTo =
        api.postJson(CAMPAIGNS, campaign("news@shop.example", "Care <c@shop.example>"));
    assertThat(badReplyTo.status()).as(badReplyTo.body()).isEqualTo(422);
    assertThat(badReplyTo.detail()).contains("replyTo ");

    var good = api.postJson(CAMPAIGNS, campaign("news@SHOP.example", "care@bücher.example"));
    assertThat(good.status()).as(good.body()).isEqualTo(201);
    assertThat(good.json().path("from").path("email").asString()).isEqualTo("news@shop.example");
    assertThat(good.json().path("from").path("name").asString()).isEqualTo("Shop, \"the\" <best>");
    assertThat(good.json().path("replyTo").path("email").asString())
        .isEqualTo("care@xn--bcher-kva.example");
  }
}
