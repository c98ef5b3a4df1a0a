package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.app.OptimizeExperiments;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.RecordingSends;
import dev.tidings.config.Secret;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.message.TokenCodec;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.optimize.ExperimentStepsListener;
import dev.tidings.storage.Database;
import dev.tidings.testing.FunnelSteps;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import dev.tidings.web.optimize.ExperimentRoutes;
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
import org.junit.jupiter.api.TestInstance;

/**
 * A campaign's experiment over HTTP on the real PostgreSQL: results and the decision, the rollout of an
 * A/B winner to the rest once the test was sent and decided, and clear answers to every wrong request.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExperimentRoutesIT {
  private static final String KEY = "tk_experiment_test_key_0123456789";
  private static final String CAMPAIGN = """
      {"name": "Subject test", "from": {"email": "news@shop.example"},
       "subject": "Hello {{subscriber.firstName}}", "html": "<p>Hi</p>", "text": "Hi",
       "experiment": {"allocation": "%s", "metric": "human_open", "testShare": 0.5,
         "variants": [{"name": "A"}, {"name": "B", "subject": "Your picks are waiting"}]}}""";
  private Database database;
  private HttpServer server;
  private ApiClient api;
  private RecordingSends sends;
  private CampaignExperiments experiments;

  @BeforeAll
  void start() {
    database = TestDatabases.real();
    var jdbi = database.jdbi();
    InstantSource clock = InstantSource.system();
    sends = new RecordingSends();
    var campaigns = new CampaignService(
        jdbi, sends, new AudienceQuery(jdbi, clock), clock, new SimpleMeterRegistry());
    var tokens = TokenCodec.of(new Secret("experiment-routes-secret-0123456789"));
    var emails = new CampaignEmails(
        jdbi,
        new SubscriberService(jdbi, clock),
        new SuppressionService(jdbi, clock),
        new CampaignRenderer(URI.create("https://mail.shop.example"), tokens, clock),
        clock,
        new SimpleMeterRegistry());
    experiments = new CampaignExperiments(jdbi, clock, new SimpleMeterRegistry());
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(
            new CampaignRoutes(campaigns, emails, 64 * 1024, CampaignHeadlines.NONE),
            new ExperimentRoutes(campaigns, experiments, OptimizeExperiments::plan)));
    api = new ApiClient(server.port(), KEY);
  }

  @AfterAll
  void stop() {
    server.close();
    database.close();
  }

  private long create(String allocation) {
    var created = api.postJson("/api/v1/campaigns", CAMPAIGN.formatted(allocation));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().path("id").asLong();
  }

  private void step(String message, long campaign) {
    FunnelSteps.record(
        database.jdbi(),
        new ExperimentStepsListener(database.jdbi()),
        message,
        campaign,
        FunnelStep.HUMAN_OPENED);
  }

  @Test
  void an_ab_winner_is_reported_and_rolled_out_to_the_rest_once_sent_and_decided() {
    long id = create("ab");
    String path = "/api/v1/campaigns/" + id + "/experiment";
    var empty = api.get(path);
    assertThat(empty.status()).isEqualTo(200);
    assertThat(empty.json().path("decision").isNull()).isTrue();
    assertThat(empty.json().path("variants").path(1).path("name").asString()).isEqualTo("B");
    assertThat(api.postJson(path + "/rollout", "").detail()).contains("has not finished sending");

    assertThat(api.postJson("/api/v1/campaigns/" + id + "/send", "").status()).isIn(200, 202);
    sends.finish(sends.started.getLast().job().runId());
    var undecided = api.postJson(path + "/rollout", "");
    assertThat(undecided.status()).isEqualTo(409);
    assertThat(undecided.detail()).contains("has not decided yet");

    for (int i = 0; i < 600; i++) {
      experiments.sent(id, id + "-a-" + i, "a-" + i, 0);
      experiments.sent(id, id + "-b-" + i, "b-" + i, 1);
      if (i % 10 < 3) step(id + "-a-" + i, id);
      if (i % 20 < 9) step(id + "-b-" + i, id);
    }
    var decided = api.get(path).json();
    assertThat(decided.path("decision").path("winner").asString()).isEqualTo("B");
    assertThat(decided.path("variants").path(1).path("rate").asDouble()).isEqualTo(0.45);
    assertThat(decided
            .path("variants")
            .path(1)
            .path("versusControl")
            .path("pValue")
            .asDouble())
        .isLessThan(0.025);

    var rollout = api.postJson(path + "/rollout", "");
    assertThat(rollout.status()).as(rollout.body()).isEqualTo(201);
    assertThat(rollout.json().path("name").asString()).isEqualTo("Subject test (winner: B)");
    assertThat(rollout.json().path("subject").asString()).isEqualTo("Your picks are waiting");
    assertThat(rollout.json().path("experiment").isMissingNode()).isTrue();
    assertThat(rollout.json().path("audience").toString())
        .contains("\"type\":\"notInTest\"", "\"campaignId\":" + id);
    assertThat(sends.started.getLast().job().campaignId())
        .isEqualTo(rollout.json().path("id").asLong());
    int runs = sends.started.size();
    var again = api.postJson(path + "/rollout", "");
    assertThat(again.status()).as("a repeated rollout sends nothing").isEqualTo(200);
    assertThat(again.json().path("id").asLong())
        .isEqualTo(rollout.json().path("id").asLong());
    assertThat(sends.started).hasSize(runs);
  }

  @Test
  void wrong_requests_say_what_is_wrong() {
    assertThat(api.get("/api/v1/campaigns/x/experiment").status()).isEqualTo(400);
    assertThat(api.get("/api/v1/campaigns/999999/experiment").status()).isEqualTo(404);
    var plain = api.postJson("/api/v1/campaigns", """
        {"name": "Plain", "from": "news@shop.example", "subject": "Hi", "html": "<p>Hi</p>",
         "text": "Hi"}""");
    var none = api.get("/api/v1/campaigns/" + plain.json().path("id").asLong() + "/experiment");
    assertThat(none.status()).isEqualTo(404);
    assertThat(none.detail()).contains("runs no experiment");
    long bandit = create("bandit");
    var rollout = api.postJson("/api/v1/campaigns/" + bandit + "/experiment/rollout", "");
    assertThat(rollout.status()).isEqualTo(409);
    assertThat(rollout.detail()).contains("is a bandit");
    var bad = api.postJson("/api/v1/campaigns", CAMPAIGN.formatted("coin"));
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.body()).contains("experiment.allocation must be one of ab, bandit");
  }
}
