package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Follow;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.GeoPoint;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.TargetType;
import dev.tidings.optimize.CampaignExperiments;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each segment condition against real rows in the tables it reads. */
class AudienceQueryIT {
  private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
  private static Database database;
  private static AudienceQuery query;

  @BeforeAll
  static void seed() {
    database = TestDatabases.real();
    var jdbi = database.jdbi();
    InstantSource clock = InstantSource.fixed(NOW);
    query = new AudienceQuery(jdbi, clock);
    var subscribers = new SubscriberService(jdbi, clock);
    // vienna: Vienna, de-AT; graz: 145 km from Vienna, de-AT; berlin: de-DE; paris: fr-FR, no point
    subscribers.put(subscriber("vienna", "de-AT", "AT", "Wien", 48.2082, 16.3738));
    subscribers.put(subscriber("graz", "de-AT", "AT", "Graz", 47.0707, 15.4395));
    subscribers.put(subscriber("berlin", "de-DE", "DE", "Berlin", 52.52, 13.405));
    subscribers.put(new Subscriber(
        "paris",
        "paris@example.com",
        Optional.of("P"),
        Locale.forLanguageTag("fr-FR"),
        ZoneId.of("Europe/Paris"),
        Optional.of(new Location(Optional.empty(), Optional.of("Paris"), Optional.of("FR"))),
        Consent.SUBSCRIBED));
    var follows = new FollowService(jdbi, clock);
    follows.follow(new Follow("graz", new FollowTarget(TargetType.BRAND, "velin"), NOW));
    follows.follow(new Follow("paris", new FollowTarget(TargetType.BRAND, "velin"), NOW));
    follows.follow(new Follow("berlin", new FollowTarget(TargetType.ARTIST, "velin"), NOW));
    var activity = new ActivityIntake(jdbi, clock);
    activity.record(List.of(
        event("e1", "vienna", EventType.EMAIL_CLICK, "p1", NOW.minus(Duration.ofDays(3))),
        event("e2", "berlin", EventType.EMAIL_CLICK, "p1", NOW.minus(Duration.ofDays(40))),
        event("e3", "paris", EventType.OPEN, "7", NOW.minus(Duration.ofDays(1))),
        event("e4", "graz", EventType.CLICK, "p1", NOW.minus(Duration.ofDays(1))),
        event("e5", "berlin", EventType.OPEN, "9", NOW.minus(Duration.ofDays(20)))));
    jdbi.useHandle(
        handle -> handle.execute(
            "INSERT INTO message_slots (message_id, subscriber_id, campaign_id, product_ids, chosen_at)"
                + " VALUES ('m-1', 'vienna', 7, ARRAY['p1'], now()), ('m-2', 'graz', 8, ARRAY['p1'], now())"));
  }

  @AfterAll
  static void close() {
    database.close();
  }

  private static Subscriber subscriber(
      String id, String locale, String country, String city, double lat, double lon) {
    return new Subscriber(
        id,
        id + "@example.com",
        Optional.of(id),
        Locale.forLanguageTag(locale),
        ZoneId.of("Europe/Vienna"),
        Optional.of(new Location(
            Optional.of(new GeoPoint(lat, lon)), Optional.of(city), Optional.of(country))),
        Consent.SUBSCRIBED);
  }

  private static ActivityEvent event(
      String id, String user, EventType type, String item, Instant at) {
    return new ActivityEvent(Optional.of(id), user, type, item, at, 1, Optional.empty());
  }

  private static List<String> ids(Condition... conditions) {
    List<String> out = new ArrayList<>();
    query.ids(new Audience.Segment(List.of(conditions))).forEachRemaining(out::add);
    return out;
  }

  @Test
  void a_rollout_audience_leaves_out_whoever_the_test_sent_a_variant() {
    var experiments = new CampaignExperiments(
        database.jdbi(), InstantSource.fixed(NOW), new SimpleMeterRegistry());
    experiments.sent(77, "m-vienna", "vienna", 0);
    experiments.sent(77, "m-paris", "paris", 1);
    experiments.sent(78, "m-graz", "graz", 0);
    assertThat(ids(new Condition.InExperiment(77, false))).containsExactly("berlin", "graz");
    assertThat(ids(new Condition.InExperiment(77, true))).containsExactly("paris", "vienna");
  }

  @Test
  void all_is_everyone_in_id_order() {
    List<String> out = new ArrayList<>();
    query.ids(new Audience.All()).forEachRemaining(out::add);
    assertThat(out).containsExactly("berlin", "graz", "paris", "vienna");
    assertThat(query.count(new Audience.All())).isEqualTo(4);
  }

  @Test
  void field_conditions_compare_case_insensitively() {
    assertThat(ids(new Condition.FieldIn(Condition.Field.COUNTRY, List.of("at"))))
        .containsExactly("graz", "vienna");
    assertThat(ids(new Condition.FieldIn(Condition.Field.CITY, List.of("PARIS", "Berlin"))))
        .containsExactly("berlin", "paris");
  }

  @Test
  void locale_matches_a_language_or_a_whole_tag() {
    assertThat(ids(new Condition.LocaleIn(List.of("de"))))
        .containsExactly("berlin", "graz", "vienna");
    assertThat(ids(new Condition.LocaleIn(List.of("de-AT")))).containsExactly("graz", "vienna");
  }

  @Test
  void near_is_a_great_circle_radius() {
    assertThat(ids(new Condition.Near(48.2082, 16.3738, 100))).containsExactly("vienna");
    assertThat(ids(new Condition.Near(48.2082, 16.3738, 160))).containsExactly("graz", "vienna");
  }

  @Test
  void follows_needs_the_type_and_the_id() {
    assertThat(ids(new Condition.Follows(TargetType.BRAND, "velin")))
        .containsExactly("graz", "paris");
  }

  @Test
  void opened_reads_kept_slots_and_open_events() {
    assertThat(ids(new Condition.OpenedCampaign(7, true))).containsExactly("paris", "vienna");
    assertThat(ids(new Condition.OpenedCampaign(7, false))).containsExactly("berlin", "graz");
  }

  @Test
  void opened_within_reads_kept_slots_and_open_events_of_any_campaign_in_the_last_days() {
    // vienna and graz: kept slot lists now; paris: an open a day ago; berlin: an open 20 days ago
    assertThat(ids(new Condition.OpenedWithin(7))).containsExactly("graz", "paris", "vienna");
    assertThat(ids(new Condition.OpenedWithin(30)))
        .containsExactly("berlin", "graz", "paris", "vienna");
    assertThat(query.count(new Audience.Segment(List.of(new Condition.OpenedWithin(7)))))
        .isEqualTo(3);
  }

  @Test
  void clicked_within_counts_email_clicks_of_the_last_days_only() {
    assertThat(ids(new Condition.ClickedWithin(30))).containsExactly("vienna");
    assertThat(ids(new Condition.ClickedWithin(60))).containsExactly("berlin", "vienna");
  }

  @Test
  void conditions_combine_with_and() {
    assertThat(ids(
            new Condition.LocaleIn(List.of("de")),
            new Condition.OpenedCampaign(7, false),
            new Condition.Follows(TargetType.BRAND, "velin")))
        .containsExactly("graz");
  }

  @Test
  void pages_continue_past_the_page_size() {
    var subscribers = new SubscriberService(database.jdbi(), InstantSource.fixed(NOW));
    try {
      for (int i = 0; i < AudienceQuery.PAGE + 5; i++)
        subscribers.put(subscriber(
            "bulk-" + String.format(Locale.ROOT, "%05d", i), "en-GB", "GB", "Leeds", 53.8, -1.55));
      List<String> out = ids(new Condition.FieldIn(Condition.Field.COUNTRY, List.of("GB")));
      assertThat(out).hasSize(AudienceQuery.PAGE + 5).doesNotHaveDuplicates().isSorted();
    } finally {
      database.jdbi().useHandle(h -> h.execute("DELETE FROM subscribers WHERE id LIKE 'bulk-%'"));
    }
  }
}
