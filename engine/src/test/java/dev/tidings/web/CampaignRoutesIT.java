package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.audience.Consent;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.RecordingSends;
import dev.tidings.campaign.Unsubscribes;
import dev.tidings.config.Secret;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import dev.tidings.web.campaign.UnsubscribeRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The campaign resource, its actions and the unsubscribe page through a real server and PostgreSQL. */
class CampaignRoutesIT {
  private static final String KEY = "campaign-routes-key-0123456789";
  private static final String CAMPAIGNS = "/api/v1/campaigns";
  private static final TokenCodec TOKENS =
      TokenCodec.of(new Secret("campaign-routes-secret-0123456789"));
  private static final String CAMPAIGN = """
      {"name":"Autumn","from":{"email":"news@shop.example","name":"Shop"},
       "subject":"Hi {{subscriber.firstName}}","slots":3,
       "html":"<html><body><p>Hello {{subscriber.name}}</p></body></html>","text":"Hello {{subscriber.name}}"}""";
  private static Database database;
  private static HttpServer server;
  private static ApiClient api;
  private static RecordingSends sends;
  private static SuppressionService suppressions;
  private static final HttpClient plain = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    database = TestDatabases.real();
    var jdbi = database.jdbi();
    InstantSource clock = InstantSource.system();
    sends = new RecordingSends();
    var subscribers = new SubscriberService(jdbi, clock);
    suppressions = new SuppressionService(jdbi, clock);
    var campaigns = new CampaignService(
        jdbi, sends, new AudienceQuery(jdbi, clock), clock, new SimpleMeterRegistry());
    var emails = new CampaignEmails(
        jdbi,
        subscribers,
        suppressions,
        new CampaignRenderer(URI.create("https://mail.shop.example"), TOKENS, clock),
        clock,
        new SimpleMeterRegistry());
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(
            new CampaignRoutes(campaigns, emails, 64 * 1024, CampaignHeadlines.NONE),
            new UnsubscribeRoutes(
                new Unsubscribes(TOKENS, subscribers, suppressions, sends, clock))));
    api = new ApiClient(server.port(), KEY);
    subscribers.put(new Subscriber(
        "s1",
        "s1@example.com",
        Optional.of("Ada <b>Lovelace</b>"),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        Consent.SUBSCRIBED));
  }

  @AfterAll
  static void stop() {
    server.close();
    database.close();
  }

  private static long create() {
    var created = api.postJson(CAMPAIGNS, CAMPAIGN);
    assertThat(created.status()).isEqualTo(201);
    return created.json().path("id").asLong();
  }

  @Test
  void crud_over_http() {
    var created = api.postJson(CAMPAIGNS, CAMPAIGN);
    assertThat(created.status()).isEqualTo(201);
    long id = created.json().path("id").asLong();
    assertThat(created.json().path("state").asString()).isEqualTo("DRAFT");
    assertThat(created.json().path("audience").path("type").asString()).isEqualTo("all");

    var one = api.get(CAMPAIGNS + "/" + id);
    assertThat(one.status()).isEqualTo(200);
    assertThat(one.json().path("name").asString()).isEqualTo("Autumn");

    // what GET returned can be sent back as it is
    var replaced =
        api.putJson(CAMPAIGNS + "/" + id, one.body().replace("\"Autumn\"", "\"Winter\""));
    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.json().path("name").asString()).isEqualTo("Winter");
    assertThat(replaced.json().path("version").asInt()).isEqualTo(2);

    var patched = api.patchJson(CAMPAIGNS + "/" + id, "{\"slots\":6}");
    assertThat(patched.status()).isEqualTo(200);
    assertThat(patched.json().path("slots").asInt()).isEqualTo(6);
    assertThat(patched.json().path("name").asString()).isEqualTo("Winter");

    var list = api.get(CAMPAIGNS + "?limit=1000");
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.json().path("items").findValuesAsString("name")).contains("Winter");

    assertThat(api.delete(CAMPAIGNS + "/" + id).status()).isEqualTo(204);
    assertThat(api.get(CAMPAIGNS + "/" + id).status()).isEqualTo(404);
  }

  @Test
  void bad_requests_get_a_4xx_that_says_what_is_wrong_and_write_nothing() {
    int before = api.get(CAMPAIGNS + "?limit=1000").json().path("items").size();
    var triple = api.postJson(
        CAMPAIGNS, CAMPAIGN.replace("Hello {{subscriber.name}}</p>", "{{{subscriber.name}}}</p>"));
    assertThat(triple.status()).isEqualTo(422);
    assertThat(triple.detail()).contains("triple mustaches");
    var script = api.postJson(
        CAMPAIGNS, CAMPAIGN.replace("<p>Hello", "<a href=\\\"javascript:alert(1)\\\">x</a><p>"));
    assertThat(script.status()).isEqualTo(422);
    assertThat(script.detail()).contains("'javascript:' is refused");
    var missing = api.postJson(CAMPAIGNS, "{\"name\":\"x\"}");
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.detail())
        .contains("missing required field 'from'")
        .contains("missing required field 'html'");
    assertThat(api.postJson(CAMPAIGNS, "{not json").status()).isEqualTo(400);
    assertThat(api.post(CAMPAIGNS, "text/plain", CAMPAIGN).status()).isEqualTo(415);
    assertThat(api.postJson(CAMPAIGNS, "[1]").status()).isEqualTo(422);
    assertThat(api.get(CAMPAIGNS + "/abc").detail())
        .isEqualTo("a campaign id is a whole number >= 1, got 'abc'");
    assertThat(api.get(CAMPAIGNS + "/abc").status()).isEqualTo(400);
    assertThat(api.get(CAMPAIGNS + "/987654321").status()).isEqualTo(404);
    assertThat(api.get(CAMPAIGNS + "?limit=0").status()).isEqualTo(400);
    assertThat(api.get(CAMPAIGNS + "?limit=1000").json().path("items").size()).isEqualTo(before);

    long id = create();
    var wrongId =
        api.putJson(CAMPAIGNS + "/" + id, CAMPAIGN.replace("{\"name\"", "{\"id\":1,\"name\""));
    assertThat(wrongId.status()).isEqualTo(id == 1 ? 200 : 422);
    var badPatch = api.patchJson(CAMPAIGNS + "/" + id, "{\"priority\":12}");
    assertThat(badPatch.status()).isEqualTo(422);
    assertThat(badPatch.detail())
        .isEqualTo("priority must be a whole number within 0..9 but was 12");
    assertThat(api.get(CAMPAIGNS + "/" + id).json().path("priority").asInt()).isEqualTo(4);
  }

  @Test
  void send_pause_resume_cancel_and_the_state_they_show() {
    long id = create();
    var sent = api.postJson(CAMPAIGNS + "/" + id + "/send", "{}");
    assertThat(sent.status()).isEqualTo(202);
    assertThat(sent.json().path("planned").asLong()).isEqualTo(1);
    var shown = api.get(CAMPAIGNS + "/" + id).json();
    assertThat(shown.path("state").asString()).isEqualTo("RUNNING");
    assertThat(shown.path("progress").path("planned").asLong()).isEqualTo(1);

    assertThat(api.postJson(CAMPAIGNS + "/" + id + "/send", "{}").status()).isEqualTo(409);
    var edit = api.patchJson(CAMPAIGNS + "/" + id, "{\"name\":\"late\"}");
    assertThat(edit.status()).isEqualTo(409);
    assertThat(edit.detail())
        .isEqualTo(
            "campaign " + id + " is RUNNING; only a DRAFT or SCHEDULED campaign can be changed");
    assertThat(api.delete(CAMPAIGNS + "/" + id).status()).isEqualTo(409);
    assertThat(api.postJson(CAMPAIGNS + "/" + id + "/resume", "{}").status()).isEqualTo(409);

    assertThat(api.postJson(CAMPAIGNS + "/" + id + "/pause", "{}")
            .json()
            .path("state")
            .asString())
        .isEqualTo("PAUSED");
    assertThat(api.postJson(CAMPAIGNS + "/" + id + "/resume", "{}")
            .json()
            .path("state")
            .asString())
        .isEqualTo("RUNNING");
    assertThat(api.postJson(CAMPAIGNS + "/" + id + "/cancel", "{}")
            .json()
            .path("state")
            .asString())
        .isEqualTo("CANCELLED");
    assertThat(api.postJson(CAMPAIGNS + "/" + id + "/cancel", "{}").status()).isEqualTo(409);
  }

  @Test
  void trigger_needs_a_subscriber_id() {
    long id = create();
    var triggered = api.postJson(CAMPAIGNS + "/" + id + "/trigger", "{\"subscriberId\":\"s1\"}");
    assertThat(triggered.status()).isEqualTo(202);
    assertThat(triggered.json().path("priority").asInt()).isEqualTo(9);
    assertThat(sends.triggered)
        .anyMatch(t -> t.job().campaignId() == id && t.subscriberId().equals("s1"));
    assertThat(api.postJson(CAMPAIGNS + "/" + id + "/trigger", "{\"subscriberId\":\"a b\"}")
            .status())
        .isEqualTo(422);
  }

  @Test
  void preview_shows_one_subscribers_email_and_404s_for_an_unknown_one() {
    long id = create();
    var preview = api.get(CAMPAIGNS + "/" + id + "/preview?subscriber=s1");
    assertThat(preview.status()).isEqualTo(200);
    var json = preview.json();
    assertThat(json.path("wouldSend").asBoolean()).isTrue();
    assertThat(json.path("headers").path("Subject").asString()).isEqualTo("Hi Ada");
    assertThat(json.path("headers").path("List-Unsubscribe-Post").asString())
        .isEqualTo("List-Unsubscribe=One-Click");
    assertThat(json.path("headers").path("X-Tidings-Message-Id").asString())
        .isEqualTo(new MessageId(id, 0, "s1").text());
    assertThat(json.path("html").asString())
        .contains("Hello Ada &lt;b&gt;Lovelace&lt;/b&gt;")
        .containsPattern("/o/[A-Za-z0-9_-]+/2\"");
    assertThat(json.path("text").asString()).contains("Hello Ada <b>Lovelace</b>");
    var unknown = api.get(CAMPAIGNS + "/" + id + "/preview?subscriber=nobody");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.detail()).isEqualTo("no subscriber with id nobody");
    assertThat(api.get(CAMPAIGNS + "/" + id + "/preview").status()).isEqualTo(400);
  }

  @Test
  void unsubscribe_get_changes_nothing_post_suppresses_and_bad_tokens_get_a_neutral_page()
      throws Exception {
    String token = TOKENS.encode(new MessageToken(new MessageId(1, 1, "s1"), Instant.now(), 0));
    var page = email("GET", "/u/" + token, null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<form method=\"post\"");
    assertThat(suppressions.isSuppressed("s1@example.com")).isFalse();

    var bad = email("POST", "/u/AAAAnot-a-token", "List-Unsubscribe=One-Click");
    assertThat(bad.statusCode()).isEqualTo(200);
    assertThat(bad.body()).contains("Nothing was changed");
    assertThat(bad.headers().firstValue("Location")).isEmpty();
    assertThat(email("GET", "/u/AAAAnot-a-token", null).body()).contains("Nothing was changed");
    assertThat(suppressions.isSuppressed("s1@example.com")).isFalse();

    var done = email("POST", "/u/" + token, "List-Unsubscribe=One-Click");
    assertThat(done.statusCode()).isEqualTo(200);
    assertThat(done.body()).contains("You are unsubscribed");
    assertThat(suppressions.isSuppressed("s1@example.com")).isTrue();
    suppressions.unsuppress("s1@example.com");
  }

  /** An email-facing request: no API key, as a mail client sends it. */
  private static HttpResponse<String> email(String method, String path, String form)
      throws Exception {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10));
    if (form != null)
      request
          .header("Content-Type", "application/x-www-form-urlencoded")
          .method(method, HttpRequest.BodyPublishers.ofString(form));
    else request.method(method, HttpRequest.BodyPublishers.noBody());
    return plain.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
