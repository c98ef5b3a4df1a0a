package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.ErrorKind;
import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The campaign life cycle on the real PostgreSQL, with a recording stand-in for the send pipeline. */
class CampaignServiceIT {
  private Database database;
  private RecordingSends sends;
  private CampaignService campaigns;
  private SubscriberService subscribers;
  private final InstantSource clock = InstantSource.system();

  @BeforeEach
  void open() {
    database = TestDatabases.real();
    sends = new RecordingSends();
    campaigns = new CampaignService(
        database.jdbi(),
        sends,
        new AudienceQuery(database.jdbi(), clock),
        clock,
        new SimpleMeterRegistry());
    subscribers = new SubscriberService(database.jdbi(), clock);
  }

  @AfterEach
  void close() {
    database.close();
  }

  private long count() {
    return database
        .jdbi()
        .withHandle(h ->
            h.createQuery("SELECT count(*) FROM campaigns").mapTo(Long.class).one());
  }

  @Test
  void a_campaign_is_created_read_listed_replaced_and_deleted() {
    Campaign created = campaigns.create(Fixtures.definition());
    assertThat(created.state()).isEqualTo(CampaignState.DRAFT);
    assertThat(created.version()).isEqualTo(1);
    assertThat(campaigns.get(created.id())).contains(created);

    Campaign second = campaigns.create(Fixtures.definition());
    assertThat(campaigns.list(Optional.empty(), 10))
        .extracting(Campaign::id)
        .containsExactly(second.id(), created.id());
    assertThat(campaigns.list(Optional.of(second.id()), 10))
        .extracting(Campaign::id)
        .containsExactly(created.id());

    ObjectNode json = Fixtures.json();
    json.put("name", "Renamed");
    json.put("scheduledAt", "2099-01-01T00:00:00Z");
    Campaign replaced = campaigns.replace(created.id(), CampaignJson.fromJson(json));
    assertThat(replaced.definition().name()).isEqualTo("Renamed");
    assertThat(replaced.state()).isEqualTo(CampaignState.SCHEDULED);
    assertThat(replaced.version()).isEqualTo(2);

    Campaign patched =
        campaigns.patch(created.id(), Json.MAPPER.readTree("{\"scheduledAt\":null}"));
    assertThat(patched.state()).isEqualTo(CampaignState.DRAFT);
    assertThat(patched.definition().name()).isEqualTo("Renamed");

    campaigns.delete(created.id());
    assertThat(campaigns.get(created.id())).isEmpty();
    assertThatThrownBy(() -> campaigns.delete(created.id()))
        .isInstanceOfSatisfying(
            CampaignProblem.class, p -> assertThat(p.kind()).isEqualTo(ErrorKind.NOT_FOUND));
  }

  @Test
  void a_refused_definition_writes_nothing() {
    ObjectNode json = Fixtures.json();
    json.put("html", "<a href=\"javascript:alert(1)\">x</a>");
    assertThatThrownBy(() -> campaigns.create(CampaignJson.fromJson(json)))
        .isInstanceOf(InvalidInputException.class);
    assertThat(count()).isZero();

    Campaign created = campaigns.create(Fixtures.definition());
    assertThatThrownBy(
            () -> campaigns.patch(created.id(), Json.MAPPER.readTree("{\"html\":\"{{{x}}}\"}")))
        .isInstanceOf(InvalidInputException.class);
    assertThat(campaigns.get(created.id()).orElseThrow()).isEqualTo(created);
  }

  @Test
  void send_claims_the_campaign_and_hands_the_pipeline_the_consenting_unsuppressed_audience() {
    for (int i = 1; i <= 5; i++)
      subscribers.put(Fixtures.subscriber("s" + i, "s" + i + "@example.com", "S " + i, "Wien"));
    subscribers.put(new Subscriber(
        "s6",
        "s6@example.com",
        Optional.empty(),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        Consent.UNSUBSCRIBED));
    new SuppressionService(database.jdbi(), clock)
        .suppress(new Suppression("S2@example.com", SuppressionReason.BOUNCE, clock.instant()));

    Campaign created = campaigns.create(Fixtures.definition());
    var progress = campaigns.send(created.id());

    Campaign running = campaigns.get(created.id()).orElseThrow();
    assertThat(running.state()).isEqualTo(CampaignState.RUNNING);
    long run = running.runId().orElseThrow();
    assertThat(sends.started).singleElement().satisfies(started -> {
      assertThat(started.job()).isEqualTo(new SendJob(created.id(), run, 3, 250));
      assertThat(started.recipients()).containsExactly("s1", "s3", "s4", "s5");
    });
    assertThat(progress.planned()).isEqualTo(4);

    assertThatThrownBy(() -> campaigns.send(created.id()))
        .isInstanceOfSatisfying(
            CampaignProblem.class,
            p -> assertThat(p.detail())
                .isEqualTo("campaign " + created.id()
                    + " is RUNNING; only a DRAFT or SCHEDULED campaign can be sent"));
    assertThatThrownBy(() -> campaigns.replace(created.id(), Fixtures.definition()))
        .isInstanceOfSatisfying(
            CampaignProblem.class, p -> assertThat(p.kind()).isEqualTo(ErrorKind.CONFLICT));
    assertThatThrownBy(() -> campaigns.delete(created.id()))
        .isInstanceOfSatisfying(
            CampaignProblem.class,
            p -> assertThat(p.detail()).contains("only a DRAFT campaign can be deleted"));

    campaigns.pause(created.id());
    assertThat(campaigns.view(created.id()).orElseThrow().state()).isEqualTo(CampaignState.PAUSED);
    assertThatThrownBy(() -> campaigns.pause(created.id())).isInstanceOf(CampaignProblem.class);
    campaigns.resume(created.id());
    assertThat(campaigns.view(created.id()).orElseThrow().state()).isEqualTo(CampaignState.RUNNING);
    sends.finish(run);
    var view = campaigns.view(created.id()).orElseThrow();
    assertThat(view.state()).isEqualTo(CampaignState.COMPLETED);
    assertThat(view.progress().orElseThrow().sent()).isEqualTo(4);
    assertThatThrownBy(() -> campaigns.cancel(created.id()))
        .isInstanceOfSatisfying(
            CampaignProblem.class,
            p -> assertThat(p.detail())
                .isEqualTo("campaign " + created.id() + " is COMPLETED; nothing to cancel"));
    assertThat(sends.calls)
        .containsExactly(
            "start " + created.id() + "/" + run,
            "pause " + created.id() + "/" + run,
            "resume " + created.id() + "/" + run);
  }

  @Test
  void a_run_whose_start_failed_is_started_again_under_the_same_run_id() {
    var failing = new RecordingSends();
    failing.failNextStart = new IllegalStateException("the pipeline is down");
    var service = new CampaignService(
        database.jdbi(),
        failing,
        new AudienceQuery(database.jdbi(), clock),
        clock,
        new SimpleMeterRegistry());
    Campaign created = service.create(Fixtures.definition());
    assertThatThrownBy(() -> service.send(created.id())).hasMessage("the pipeline is down");
    long run = service.get(created.id()).orElseThrow().runId().orElseThrow();
    service.send(created.id());
    assertThat(failing.started)
        .singleElement()
        .satisfies(s -> assertThat(s.job().runId()).isEqualTo(run));
  }

  @Test
  void cancelling_a_scheduled_campaign_keeps_it_from_starting() {
    ObjectNode json = Fixtures.json();
    json.put("scheduledAt", clock.instant().minusSeconds(5).toString());
    Campaign created = campaigns.create(CampaignJson.fromJson(json));
    campaigns.cancel(created.id());
    assertThat(campaigns.get(created.id()).orElseThrow().state())
        .isEqualTo(CampaignState.CANCELLED);
    assertThat(new CampaignScheduler(
                database.jdbi(),
                campaigns,
                clock,
                CampaignScheduler.DEFAULT_POLL,
                new SimpleMeterRegistry())
            .poll())
        .isEmpty();
    assertThat(sends.started).isEmpty();
  }

  @Test
  void a_trigger_sends_one_subscriber_at_high_priority_in_the_campaigns_trigger_run() {
    subscribers.put(Fixtures.subscriber("s1", "s1@example.com", "S 1", "Wien"));
    subscribers.put(Fixtures.subscriber("s2", "s2@example.com", "S 2", "Wien"));
    Campaign created = campaigns.create(Fixtures.definition());
    SendJob first = campaigns.trigger(created.id(), "s1");
    SendJob second = campaigns.trigger(created.id(), "s2");
    assertThat(first.priority()).isEqualTo(SendJob.TRIGGERED_PRIORITY);
    assertThat(second.runId()).isEqualTo(first.runId());
    assertThat(sends.triggered)
        .extracting(RecordingSends.Triggered::subscriberId)
        .containsExactly("s1", "s2");
  }

  @Test
  void a_due_scheduled_campaign_is_claimed_once_by_concurrent_schedulers() throws Exception {
    Instant past = clock.instant().minus(Duration.ofMinutes(1));
    List<Long> due = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      ObjectNode json = Fixtures.json();
      json.put("scheduledAt", past.toString());
      due.add(campaigns.create(CampaignJson.fromJson(json)).id());
    }
    ObjectNode later = Fixtures.json();
    later.put("scheduledAt", clock.instant().plus(Duration.ofHours(1)).toString());
    long notDue = campaigns.create(CampaignJson.fromJson(later)).id();

    int pollers = 4;
    var barrier = new CyclicBarrier(pollers);
    List<Future<List<Campaign>>> polls = new ArrayList<>();
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int p = 0; p < pollers; p++) {
        var scheduler = new CampaignScheduler(
            database.jdbi(),
            campaigns,
            clock,
            CampaignScheduler.DEFAULT_POLL,
            new SimpleMeterRegistry());
        Callable<List<Campaign>> poll = () -> {
          barrier.await();
          List<Campaign> claimed = new ArrayList<>();
          for (int round = 0; round < 3; round++) claimed.addAll(scheduler.poll());
          return claimed;
        };
        polls.add(executor.submit(poll));
      }
    }
    List<Long> claimed = new ArrayList<>();
    for (var poll : polls) poll.get().forEach(c -> claimed.add(c.id()));
    assertThat(claimed).containsExactlyInAnyOrderElementsOf(due);
    assertThat(sends.started)
        .extracting(s -> s.job().campaignId())
        .containsExactlyInAnyOrderElementsOf(due);
    assertThat(campaigns.get(notDue).orElseThrow().state()).isEqualTo(CampaignState.SCHEDULED);
    for (long id : due)
      assertThat(campaigns.get(id).orElseThrow().state()).isEqualTo(CampaignState.RUNNING);
  }

  @Test
  void a_draft_has_nothing_to_cancel_and_a_node_without_a_pipeline_claims_nothing() {
    Campaign draft = campaigns.create(Fixtures.definition());
    assertThatThrownBy(() -> campaigns.cancel(draft.id()))
        .isInstanceOfSatisfying(
            CampaignProblem.class,
            p -> assertThat(p.detail())
                .isEqualTo("campaign " + draft.id()
                    + " is a DRAFT: nothing to cancel; DELETE removes it"));

    ObjectNode json = Fixtures.json();
    json.put("scheduledAt", clock.instant().minusSeconds(60).toString());
    Campaign due = campaigns.create(CampaignJson.fromJson(json));
    var unwired = new CampaignService(
        database.jdbi(),
        new UnwiredSends(),
        new AudienceQuery(database.jdbi(), clock),
        clock,
        new SimpleMeterRegistry());
    assertThat(new CampaignScheduler(
                database.jdbi(),
                unwired,
                clock,
                CampaignScheduler.DEFAULT_POLL,
                new SimpleMeterRegistry())
            .poll())
        .isEmpty();
    assertThatThrownBy(() -> unwired.send(due.id()))
        .isInstanceOfSatisfying(
            CampaignProblem.class, p -> assertThat(p.kind()).isEqualTo(ErrorKind.UNAVAILABLE));
    assertThat(campaigns.get(due.id()).orElseThrow().state()).isEqualTo(CampaignState.SCHEDULED);
  }
}
