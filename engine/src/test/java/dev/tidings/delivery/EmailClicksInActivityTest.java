package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.ActivityIntake;
import dev.tidings.message.MessageId;
import dev.tidings.opentime.Engagement;
import dev.tidings.opentime.EngagementActivity;
import dev.tidings.opentime.Engagements;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Topic;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Email clicks as activity: a person's click on a slot is one {@code email_click} per message and
 * slot however often it is repeated, redelivered or handled by several consumers at once, and a
 * machine's (scanner, prefetch) is counted in the funnel's machine column only, never in activity.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
@StartsServers
class EmailClicksInActivityTest {
  private static final Instant SENT = Instant.parse("2026-11-23T10:00:00Z");
  private static final String PERSON = ReceiptStories.PERSON;
  private static final String SCANNER = "Mozilla/5.0 (compatible; Barracuda Sentinel)";

  private Database database;
  private ReceiptStore receipts;
  private DeliveryStats stats;
  private SimpleMeterRegistry metrics;
  private EngagementActivity activity;
  private long campaign = 7_000;

  @BeforeAll
  void open() {
    database = TestDatabases.embedded();
    receipts =
        new ReceiptStore(database.jdbi(), InstantSource.fixed(SENT), new SimpleMeterRegistry());
    stats = new DeliveryStats(database.jdbi());
    metrics = new SimpleMeterRegistry();
    activity = new EngagementActivity(
        new ActivityIntake(database.jdbi(), InstantSource.fixed(SENT)),
        new EngagementVerdicts(database.jdbi()),
        metrics);
  }

  @AfterAll
  void close() {
    database.close();
  }

  private String sent(String subscriber) {
    campaign++;
    String message = new MessageId(campaign, 1, subscriber).text();
    receipts.apply(
        List.of(Receipt.of(message, DeliveryStatus.SENT, SENT, ReceiptSource.SMTP)), List.of());
    return message;
  }

  private Engagement click(String message, String subscriber, Instant at, String agent) {
    return new Engagement(
        message,
        subscriber,
        campaign,
        Engagement.Kind.SLOT_CLICK,
        Optional.of(1),
        Optional.of("p-" + subscriber),
        at,
        agent,
        Engagement.SourceClass.PUBLIC);
  }

  /** Both consumers of the engagement topics, as a worker runs them. */
  private void consume(List<Engagement> engagements) {
    var batch = List.of(new Topic.Received<>(
        new Engagements(engagements), new Delivery("d", new byte[0], 1, 1, Map.of())));
    activity.handle(batch);
    new EngagementReceipts(receipts).handle(batch);
  }

  private long emailClicks(String subscriber) {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery(
                "SELECT count(*) FROM activity_events WHERE user_id = :user AND type = 'email_click'")
            .bind("user", subscriber)
            .mapTo(Long.class)
            .one());
  }

  private double skipped(String reason) {
    var counter = metrics
        .find("tidings_engagement_activity_skipped")
        .tag("reason", reason)
        .counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void fifty_clicks_on_one_slot_of_one_email_are_one_email_click_and_one_human_click()
      throws Exception {
    String message = sent("fifty");
    double repeatsBefore = skipped("repeat");
    var clicks = new ArrayList<Engagement>();
    for (int i = 0; i < 50; i++)
      clicks.add(click(message, "fifty", SENT.plusSeconds(60 + i), PERSON));

    // ten queue messages of five, the first redelivered, handled by two consumers at once
    try (var threads = Executors.newFixedThreadPool(2)) {
      var done = new ArrayList<Future<?>>();
      for (int i = 0; i < 10; i++) {
        var part = clicks.subList(i * 5, i * 5 + 5);
        done.add(threads.submit(() -> consume(part)));
      }
      done.add(threads.submit(() -> consume(clicks.subList(0, 5))));
      for (Future<?> future : done) future.get();
    }

    assertThat(emailClicks("fifty")).isEqualTo(1);
    CampaignStats figures = stats.campaign(campaign, SENT.minusSeconds(60));
    assertThat(figures.count(FunnelStep.HUMAN_CLICKED)).isEqualTo(1);
    assertThat(skipped("repeat") - repeatsBefore).isEqualTo(54);
  }

  @Test
  void a_scanners_click_is_a_machine_click_in_the_funnel_and_no_activity() {
    String byAgent = sent("scanned");
    double machinesBefore = skipped("machine");
    consume(List.of(click(byAgent, "scanned", SENT.plusSeconds(3_600), SCANNER)));
    CampaignStats scanned = stats.campaign(campaign, SENT.minusSeconds(60));

    // a browser's user agent two seconds after the send: a scanner at delivery
    String byTiming = sent("early");
    consume(List.of(click(byTiming, "early", SENT.plusSeconds(2), PERSON)));
    CampaignStats early = stats.campaign(campaign, SENT.minusSeconds(60));

    assertThat(emailClicks("scanned")).isZero();
    assertThat(emailClicks("early")).isZero();
    for (CampaignStats figures : List.of(scanned, early)) {
      assertThat(figures.count(FunnelStep.CLICKED)).isEqualTo(1);
      assertThat(figures.count(FunnelStep.HUMAN_CLICKED)).isZero();
    }
    assertThat(skipped("machine") - machinesBefore).isEqualTo(2);
  }

  @Test
  void opens_and_image_fetches_never_become_activity() {
    String message = sent("opener");
    var open = new Engagement(
        message,
        "opener",
        campaign,
        Engagement.Kind.SLOT_IMAGE,
        Optional.of(0),
        Optional.of("p-opener"),
        SENT.plusSeconds(600),
        PERSON,
        Engagement.SourceClass.PUBLIC);
    consume(List.of(open));

    long events = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT count(*) FROM activity_events WHERE user_id = 'opener'")
            .mapTo(Long.class)
            .one());
    assertThat(events).isZero();
  }
}
