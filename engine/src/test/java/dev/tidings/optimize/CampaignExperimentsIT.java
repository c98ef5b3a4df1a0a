package dev.tidings.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.delivery.FunnelStep;
import dev.tidings.events.delivery.Opened;
import dev.tidings.storage.Database;
import dev.tidings.testing.FunnelSteps;
import dev.tidings.testing.ReceivedEvents;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Campaign experiments on the real PostgreSQL: each sent email counts once for its variant, a person's
 * open or click recorded by the delivery funnel counts for the variant of that email (and nothing else
 * does), and a report decides when a variant is better and keeps that decision.
 */
class CampaignExperimentsIT {
  private static final Instant MONDAY = Instant.parse("2026-11-23T09:00:00Z");
  private final AtomicReference<Instant> now = new AtomicReference<>(MONDAY);
  private Database database;
  private CampaignExperiments experiments;
  private final CampaignExperiments.Plan plan = new CampaignExperiments.Plan(
      List.of("control", "challenger"), CampaignExperiments.Goal.OPEN, 0.05);

  @BeforeEach
  void open() {
    database = TestDatabases.real();
    InstantSource clock = now::get;
    experiments = new CampaignExperiments(database.jdbi(), clock, new SimpleMeterRegistry());
  }

  @AfterEach
  void close() {
    database.close();
  }

  /** The funnel reaching a step: 61 is a person's first open, 71 their first click. */
  private void step(String message, long campaign, int step) {
    FunnelSteps.record(
        database.jdbi(),
        new ExperimentStepsListener(database.jdbi()),
        message,
        campaign,
        FunnelStep.ofCode(step).orElseThrow());
  }

  @Test
  void sends_and_human_steps_count_once_for_the_variant_of_their_email() {
    experiments.sent(5, "m-1", "s-1", 0);
    experiments.sent(5, "m-1", "s-1", 0);
    experiments.sent(5, "m-2", "s-2", 1);
    experiments.sent(5, "m-3", "s-3", 1);
    step("m-1", 5, 61);
    step("m-1", 5, 61);
    step("m-2", 5, 61);
    step("m-2", 5, 71);
    step("m-3", 5, 50); // a status step, not a person
    step("other", 5, 61); // not an experiment's email

    var opens = experiments.results(5, 2, CampaignExperiments.Goal.OPEN);
    assertThat(opens)
        .extracting(p -> p.successes() + "/" + p.trials())
        .containsExactly("1/1", "1/2");
    var clicks = experiments.results(5, 2, CampaignExperiments.Goal.CLICK);
    assertThat(clicks)
        .extracting(p -> p.successes() + "/" + p.trials())
        .containsExactly("0/1", "1/2");
    assertThat(experiments.results(6, 2, CampaignExperiments.Goal.OPEN))
        .extracting(p -> p.trials())
        .containsExactly(0L, 0L);
  }

  @Test
  void a_step_delivered_again_counts_once_and_an_email_in_no_experiment_leaves_no_inbox_mark()
      throws Exception {
    experiments.sent(7, "m-9", "s-9", 0);
    var listener = new ExperimentStepsListener(database.jdbi());
    var opened = ReceivedEvents.of(new Opened("m-9", 7, "s-9", MONDAY));
    var elsewhere = ReceivedEvents.of(new Opened("m-not-tested", 7, "s-8", MONDAY));
    listener.apply(opened);
    listener.apply(opened);
    listener.apply(elsewhere);

    assertThat(experiments.results(7, 1, CampaignExperiments.Goal.OPEN))
        .extracting(p -> p.successes() + "/" + p.trials())
        .containsExactly("1/1");
    long marks = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT count(*) FROM event_inbox WHERE listener = :listener")
            .bind("listener", ExperimentStepsListener.NAME)
            .mapTo(Long.class)
            .one());
    assertThat(marks).as("the experiment's open alone is marked").isEqualTo(1);
  }

  @Test
  void a_clearly_better_variant_is_decided_once_and_the_decision_is_kept() {
    // 600 emails each: the control opened by 30%, the challenger by 45%
    for (int i = 0; i < 600; i++) {
      experiments.sent(9, "c-" + i, "c-" + i, 0);
      experiments.sent(9, "v-" + i, "v-" + i, 1);
      if (i % 10 < 3) step("c-" + i, 9, 61);
      if (i % 20 < 9) step("v-" + i, 9, 61);
    }
    var report = experiments.report(9, plan);
    assertThat(report.variants())
        .extracting(ExperimentReport.Variant::conversions)
        .containsExactly(180L, 270L);
    var challenger = report.variants().get(1);
    assertThat(challenger.rate()).isEqualTo(0.45);
    assertThat(challenger.interval().contains(0.45)).isTrue();
    assertThat(challenger.probabilityBest()).isGreaterThan(0.99);
    var versus = challenger.versusControl().orElseThrow();
    assertThat(versus.difference()).isEqualTo(0.15, Offset.offset(1e-9));
    assertThat(versus.relativeLift()).isEqualTo(0.5, Offset.offset(1e-9));
    assertThat(versus.interval().low()).isPositive();
    var decision = report.decision().orElseThrow();
    assertThat(decision.winner()).isEqualTo(1);
    assertThat(decision.decidedAt()).isEqualTo(MONDAY);

    // later the control catches up: the decision made stays, as made
    now.set(MONDAY.plusSeconds(3600));
    for (int i = 0; i < 600; i++) if (i % 10 >= 3) step("c-" + i, 9, 61);
    var later = experiments.report(9, plan);
    assertThat(later.variants().getFirst().rate()).isEqualTo(1.0);
    assertThat(later.decision()).contains(decision);
  }

  @Test
  void equal_variants_reach_no_decision() {
    for (int i = 0; i < 400; i++) {
      experiments.sent(11, "c-" + i, "c-" + i, 0);
      experiments.sent(11, "v-" + i, "v-" + i, 1);
      if (i % 4 == 0) step("c-" + i, 11, 61);
      if (i % 4 == 1) step("v-" + i, 11, 61);
    }
    var report = experiments.report(11, plan);
    assertThat(report.decision()).isEmpty();
    assertThat(report.variants().get(1).versusControl().orElseThrow().pValue()).isGreaterThan(0.5);
  }
}
