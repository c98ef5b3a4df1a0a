package dev.tidings.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.coordination.MutableClock;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.delivery.SendTimeOutcomes;
import dev.tidings.message.MessageId;
import dev.tidings.sendtime.OpenHours;
import dev.tidings.sendtime.SendTimeMetrics;
import dev.tidings.sendtime.SendTimePlanner;
import dev.tidings.sendtime.SendTimePlans;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A per-subscriber campaign through the whole pipeline on the real PostgreSQL, on a clock the test
 * moves: the hold-out goes at once, each other recipient's partition only once its hour has come,
 * every recipient is sent exactly once, and the run completes with the last hour's partition.
 *
 * <p>The clock starts on Sunday 2026-03-01 08:00 UTC. Twenty subscribers opened five emails each at
 * Sunday 10:00 UTC; ten in New York (UTC-5 until March 8) have no opens, so 09:00 local is 14:00
 * UTC; ten whose time zone is UTC have no opens either, so they get everyone's busiest hour, 10:00.
 */
class SendTimeIT {
  private static final Instant START = Instant.parse("2026-03-01T08:00:00Z");
  private static final double HOLDOUT = 0.25;

  private final MutableClock clock = new MutableClock();
  private SendHarness harness;
  private CampaignService campaigns;
  private final RecordingMailTransport mail = new RecordingMailTransport();
  private final List<String> everyone = new ArrayList<>();
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  @BeforeEach
  void open() {
    assertThat(clock.instant()).isEqualTo(START);
    harness = new SendHarness(TestDatabases.real(), SendHarness.fast(), clock);
    var jdbi = harness.database.jdbi();
    var opens = new ArrayList<OpenHours.Open>();
    for (int i = 0; i < 40; i++) {
      String id = "st" + (1000 + i);
      String zone = i < 20 ? "Europe/Paris" : i < 30 ? "America/New_York" : "UTC";
      jdbi.useHandle(handle ->
          handle.execute("""
          INSERT INTO subscribers (id, email, name, time_zone, created_at, updated_at)
          VALUES (?, ?, ?, ?, now(), now())""", id, id + "@subscribers.example.test", "Reader " + id, zone));
      everyone.add(id);
      if (i < 20)
        for (int week = 1; week <= 5; week++)
          opens.add(new OpenHours.Open(
              id, Instant.parse("2026-03-01T10:20:00Z").minus(Duration.ofDays(7L * week))));
    }
    new OpenHours(jdbi).record(opens);
    campaigns = new CampaignService(
        jdbi,
        harness.sends(),
        new AudienceQuery(jdbi, clock),
        clock,
        new SendTimePlans(new OpenHours(jdbi), new SendTimeMetrics(metrics)));
  }

  @AfterEach
  void close() {
    harness.close();
  }

  private long perSubscriberCampaign() {
    return campaigns
        .create(CampaignJson.fromJson(Json.MAPPER.readTree("""
            {"name":"At their hour","from":"news@shop.example","subject":"Hello","html":"<p>Hi</p>",
             "text":"Hi","ratePerSecond":500,
             "sendTime":{"mode":"per-subscriber","within":"PT24H","holdout":%s}}""".formatted(HOLDOUT))))
        .id();
  }

  private Jdbi jdbi() {
    return harness.database.jdbi();
  }

  private Set<String> heldOut(long campaign) {
    return everyone.stream()
        .filter(id -> SendTimePlanner.heldOut(campaign, id, HOLDOUT))
        .collect(Collectors.toSet());
  }

  private static String address(String id) {
    return id + "@subscribers.example.test";
  }

  private Set<String> sentTo() {
    return new HashSet<>(mail.acceptedFor.keySet());
  }

  private SendJob job(long campaign) {
    long run = campaigns.get(campaign).orElseThrow().runId().orElseThrow();
    return new SendJob(campaign, run, 4, 500);
  }

  private void awaitSent(long count) throws InterruptedException {
    SendHarness.await(Duration.ofSeconds(60), () -> mail.accepted() >= count);
    // nothing more than that comes: the rest is not due
    Thread.sleep(300);
    assertThat(mail.accepted()).isEqualTo((int) count);
  }

  @Test
  void partitions_become_due_at_their_hours_and_the_run_completes_with_the_last() throws Exception {
    long campaign = perSubscriberCampaign();
    Set<String> control = heldOut(campaign);
    assertThat(control).isNotEmpty().hasSizeLessThan(20);
    campaigns.send(campaign);
    harness.startWorkers(mail);
    var planned = campaigns.plannedByTime(campaigns.get(campaign).orElseThrow());
    assertThat(planned)
        .extracting(Map.Entry::getKey)
        .containsExactly(
            START, Instant.parse("2026-03-01T10:00:00Z"), Instant.parse("2026-03-01T14:00:00Z"));
    assertThat(planned.getFirst().getValue()).isEqualTo(control.size());
    assertThat(planned.stream().mapToLong(Map.Entry::getValue).sum()).isEqualTo(40);

    // 08:00: only the hold-out
    awaitSent(control.size());
    assertThat(sentTo())
        .isEqualTo(control.stream().map(SendTimeIT::address).collect(Collectors.toSet()));
    assertThat(harness.progress(job(campaign)).state()).isEqualTo(SendState.RUNNING);

    // 09:59: still nothing due
    clock.advance(Duration.ofMinutes(119));
    harness.pipeline.sweepNow();
    harness.startWorkers(mail);
    awaitSent(control.size());

    // 10:00: those with opens at Sunday 10:00, and those with neither opens nor a time zone
    clock.advance(Duration.ofMinutes(1));
    harness.pipeline.sweepNow();
    harness.startWorkers(mail);
    Set<String> byTen = new HashSet<>(control);
    for (int i = 0; i < 40; i++) if (i < 20 || i >= 30) byTen.add(everyone.get(i));
    awaitSent(byTen.size());
    assertThat(sentTo())
        .isEqualTo(byTen.stream().map(SendTimeIT::address).collect(Collectors.toSet()));
    assertThat(harness.progress(job(campaign)).state()).isEqualTo(SendState.RUNNING);

    // 14:00: New York's 09:00, the last partition; the run completes. A node that starts now (a
    // pipeline with nothing in memory) finds it due in the ledger and queues it.
    clock.advance(Duration.ofHours(4));
    try (var restarted = new SendPipeline(
        jdbi(),
        harness.queue,
        harness.coordination,
        harness.options,
        clock,
        new SimpleMeterRegistry())) {
      assertThat(restarted.sweepNow()).isPositive();
    }
    harness.startWorkers(mail);
    SendHarness.await(
        Duration.ofSeconds(60), () -> harness.progress(job(campaign)).state().finished());
    SendProgress done = harness.progress(job(campaign));
    assertThat(done.state()).isEqualTo(SendState.COMPLETED);
    assertThat(done.sent()).isEqualTo(40);
    assertThat(mail.acceptedFor).hasSize(40);
    assertThat(mail.acceptedFor.values())
        .allSatisfy(count -> assertThat(count.get()).isOne());

    // the cohorts are in the ledger for splitting opens, the hold-out being the hashed one
    Map<String, Integer> cohorts = harness
        .database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT subscriber_id, cohort FROM send_recipient WHERE campaign_id = :c")
            .bind("c", campaign)
            .map((rows, context) -> Map.entry(rows.getString(1), rows.getInt(2)))
            .list()
            .stream()
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    assertThat(cohorts).hasSize(40);
    cohorts.forEach((id, cohort) -> assertThat(cohort).isEqualTo(control.contains(id) ? 1 : 0));
    // people's opens split by cohort: every timed reader opened an hour after their send, one
    // held-out reader two hours after
    jdbi().useHandle(handle -> {
      for (String id : everyone) {
        String message = new MessageId(campaign, job(campaign).runId(), id).text();
        handle.execute("""
            INSERT INTO message_status (message_id, campaign_id, subscriber_id, status, status_at,
              sent_at) VALUES (?, ?, ?, 40, now(), ?::timestamptz)""", message, campaign, id, "2026-03-01T10:00:00Z");
        boolean timed = !control.contains(id);
        if (timed || id.equals(control.iterator().next()))
          handle.execute(
              """
              INSERT INTO message_steps (message_id, step, campaign_id, first_at, source)
              VALUES (?, ?, ?, ?::timestamptz, 'pixel')""",
              message,
              (short) FunnelStep.HUMAN_OPENED.code(),
              campaign,
              timed ? "2026-03-01T11:30:00Z" : "2026-03-01T12:10:00Z");
      }
    });
    var cohorts2 = new SendTimeOutcomes(jdbi()).of(campaign);
    assertThat(cohorts2).extracting(c -> c.name()).containsExactly("timed", "held out");
    assertThat(cohorts2.get(0).sent()).isEqualTo(40 - control.size());
    assertThat(cohorts2.get(0).openRate()).isEqualTo(1.0);
    assertThat(cohorts2.get(0).opensByHour()[1]).isEqualTo(40 - control.size());
    assertThat(cohorts2.get(1).sent()).isEqualTo(control.size());
    assertThat(cohorts2.get(1).humanOpened()).isOne();
    assertThat(cohorts2.get(1).opensByHour()[2]).isOne();

    assertThat(metrics.get("tidings_send_time_held_out").counter().count())
        .isEqualTo(control.size());
    assertThat(metrics
            .get("tidings_send_time_planned")
            .tag("source", "history")
            .counter()
            .count())
        .isEqualTo((double)
            (20 - control.stream().filter(id -> everyone.indexOf(id) < 20).count()));
  }

  @Test
  void a_cancelled_run_sends_none_of_the_partitions_not_yet_due() throws Exception {
    long campaign = perSubscriberCampaign();
    Set<String> control = heldOut(campaign);
    campaigns.send(campaign);
    harness.startWorkers(mail);
    awaitSent(control.size());

    campaigns.cancel(campaign);
    clock.advance(Duration.ofHours(12));
    assertThat(harness.pipeline.sweepNow()).isZero();
    harness.startWorkers(mail);
    Thread.sleep(500); // the workers' chance to send what the cancel skipped: nothing to wait for

    SendProgress cancelled = harness.progress(job(campaign));
    assertThat(cancelled.state()).isEqualTo(SendState.CANCELLED);
    assertThat(mail.accepted()).isEqualTo(control.size());
    assertThat(cancelled.skipped()).isEqualTo(40 - control.size());
  }

  @Test
  void a_paused_run_sends_what_fell_due_while_paused_once_resumed() throws Exception {
    long campaign = perSubscriberCampaign();
    Set<String> control = heldOut(campaign);
    campaigns.send(campaign);
    harness.startWorkers(mail);
    awaitSent(control.size());

    campaigns.pause(campaign);
    clock.advance(Duration.ofHours(2));
    assertThat(harness.pipeline.sweepNow()).isZero();
    harness.startWorkers(mail);
    awaitSent(control.size());

    campaigns.resume(campaign);
    long dueByTen = control.size()
        + everyone.stream()
            .filter(id -> !control.contains(id))
            .filter(id -> everyone.indexOf(id) < 20 || everyone.indexOf(id) >= 30)
            .count();
    awaitSent(dueByTen);
  }
}
