package dev.tidings.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.RecordingSends;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.blend.Algorithm;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Open-time slots of an experiment's recommendation arm, on the real PostgreSQL: an email of a variant
 * with algorithms blends only those, its control and every other campaign blend everything.
 */
class ExperimentArmsIT {
  private Database database;
  private CampaignService campaigns;
  private CampaignExperiments experiments;
  private final List<String> asked = new CopyOnWriteArrayList<>();
  private ExperimentArms arms;

  @BeforeEach
  void open() {
    database = TestDatabases.real();
    var clock = InstantSource.system();
    campaigns = new CampaignService(
        database.jdbi(), new RecordingSends(), new AudienceQuery(database.jdbi(), clock), clock);
    experiments = new CampaignExperiments(database.jdbi(), clock);
    // records which blend each request got: the routing is what is under test here
    var blend = new ExperimentArms.Blend() {
      @Override
      public Recommendations recommend(RecommendationRequest request) {
        asked.add(request.subscriberId() + ": all");
        return new Recommendations(List.of());
      }

      @Override
      public Recommendations recommend(RecommendationRequest request, Set<Algorithm> only) {
        asked.add(request.subscriberId() + ": " + only);
        return new Recommendations(List.of());
      }
    };
    arms = new ExperimentArms(blend, () -> campaigns, experiments, clock);
  }

  @AfterEach
  void close() {
    database.close();
  }

  private long campaign(String experiment) {
    return campaigns
        .create(CampaignJson.fromJson(dev.tidings.Json.MAPPER.readTree("""
            {"name": "Arms", "from": "news@shop.example", "subject": "Hi", "html": "<p>Hi</p>",
             "text": "Hi", "slots": 3 %s}""".formatted(experiment))))
        .id();
  }

  private void ask(long campaign, String subscriber) {
    arms.recommend(new RecommendationRequest(
        subscriber,
        3,
        Set.of(),
        Optional.of(campaign),
        Locale.ROOT,
        Instant.now().plus(Duration.ofSeconds(1))));
  }

  @Test
  void an_arms_emails_blend_only_its_algorithms_and_everyone_else_the_whole_blend() {
    long tested = campaign("""
        , "experiment": {"allocation": "ab", "metric": "human_click", "testShare": 1,
          "variants": [{"name": "blend"}, {"name": "popular", "algorithms": ["popularity"]}]}""");
    long plain = campaign("");
    experiments.sent(tested, "m-ann", "ann", 1);
    experiments.sent(tested, "m-bob", "bob", 0);

    ask(tested, "ann");
    ask(tested, "bob");
    ask(tested, "cat"); // no email of the test: the blend as configured
    ask(plain, "ann");
    arms.recommend(new RecommendationRequest(
        "ann", 3, Set.of(), Optional.empty(), Locale.ROOT, Instant.now().plusSeconds(1)));

    assertThat(asked)
        .containsExactly(
            "ann: " + EnumSet.of(Algorithm.POPULARITY),
            "bob: all",
            "cat: all",
            "ann: all",
            "ann: all");
  }
}
