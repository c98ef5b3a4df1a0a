package dev.tidings.journeys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.events.activity.ActivityAccepted;
import dev.tidings.events.audience.Erased;
import dev.tidings.events.catalog.BackInStock;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Journeys at work on the embedded database with a clock the test moves, with a shop's own durations
 * (an hour, a day, a week): who enters, what each is sent and when, and what the figures say.
 */
@StartsServers
class JourneyRuntimeTest {
  private Database database;
  private JourneyHarness shop;

  @BeforeEach
  void open() {
    database = TestDatabases.embedded();
    shop = new JourneyHarness(database);
  }

  @AfterEach
  void close() {
    database.close();
  }

  private static Journey abandonedCart(double holdOut) {
    return new Journey(
        "Abandoned cart",
        new Trigger.Did("add_to_cart", 1, Duration.ofHours(1)),
        new EntryRules(Duration.ofDays(7), null),
        List.of(
            new Step.Wait("hour", new Step.Until.For(Duration.ofHours(1)), "reminder"),
            new Step.Send("reminder", JourneyHarness.REMINDER, "day"),
            new Step.Wait("day", new Step.Until.For(Duration.ofHours(24)), "last-call"),
            new Step.Send("last-call", JourneyHarness.LAST_CALL, null)),
        "purchase",
        holdOut);
  }

  private ActivityAccepted did(String person, String activity, String item) {
    return new ActivityAccepted(null, person, activity, item, 1, shop.clock.instant());
  }

  private List<String> sentTo(String person) {
    return shop.sender.sent().stream()
        .filter(sent -> sent.subscriberId().equals(person))
        .map(sent -> sent.campaignId() == JourneyHarness.REMINDER ? "reminder" : "last-call")
        .toList();
  }

  @Test
  void the_abandoned_cart_sends_the_reminder_and_last_call_only_to_who_did_not_buy() {
    long id = shop.activate(abandonedCart(0));
    shop.hear(
        did("ann", "add_to_cart", "boots"),
        did("bob", "add_to_cart", "scarf"),
        did("cy", "add_to_cart", "gloves"));
    shop.advance(Duration.ofMinutes(30));
    shop.hear(did("ann", "purchase", "boots"));
    assertThat(shop.figures(id).exits())
        .as("the goal takes ann out at once")
        .containsEntry("GOAL", 1L);

    shop.advance(Duration.ofMinutes(31));
    assertThat(sentTo("bob")).containsExactly("reminder");
    assertThat(sentTo("cy")).containsExactly("reminder");
    assertThat(sentTo("ann")).isEmpty();

    shop.advance(Duration.ofHours(2));
    shop.hear(did("cy", "purchase", "gloves"));
    shop.advance(Duration.ofHours(23));
    assertThat(sentTo("bob")).containsExactly("reminder", "last-call");
    assertThat(sentTo("cy")).as("cy bought after the reminder").containsExactly("reminder");

    var figures = shop.figures(id);
    assertThat(figures.entries()).isEqualTo(3);
    assertThat(figures.inside()).isZero();
    assertThat(figures.exits()).containsEntry("GOAL", 2L).containsEntry("COMPLETED", 1L);
    assertThat(figures.steps())
        .extracting(JourneyFigures.StepFigures::sent)
        .containsExactly(0L, 2L, 0L, 1L);
    assertThat(figures.lift().orElseThrow().sent().successes()).isEqualTo(2);
    assertThat(figures.steps().get(1).lift().orElseThrow().sent())
        .as("of bob and cy, sent the reminder, cy bought after it")
        .isEqualTo(dev.tidings.optimize.stats.Proportion.of(1, 2));
  }

  @Test
  void a_second_cart_a_day_later_is_no_new_entry_and_a_week_later_is_one_with_its_own_emails() {
    long id = shop.activate(abandonedCart(0));
    shop.hear(did("bob", "add_to_cart", "scarf"));
    shop.advance(Duration.ofHours(26));
    shop.hear(did("bob", "add_to_cart", "hat"));
    shop.advance(Duration.ofDays(2));
    assertThat(shop.figures(id).entries()).isEqualTo(1);

    shop.advance(Duration.ofDays(5));
    shop.hear(did("bob", "add_to_cart", "hat"));
    shop.advance(Duration.ofHours(26));
    assertThat(shop.figures(id).entries()).isEqualTo(2);
    assertThat(shop.sender.sent())
        .as("each entry's emails are emails of their own")
        .extracting(RecordingStepSender.Sent::runId)
        .doesNotHaveDuplicates()
        .hasSize(4);
  }

  @Test
  void a_look_repeated_after_a_dead_worker_sends_nothing_twice() {
    shop.activate(abandonedCart(0));
    shop.hear(did("bob", "add_to_cart", "scarf"));
    // the same person's message delivered again, as a queue does after a consumer died mid-batch
    var due = new Due(
        shop.store.live().getFirst().id(),
        "bob",
        1,
        shop.clock.instant().plus(Duration.ofHours(1)));
    shop.queue.publish(Due.TOPIC.name(), Due.TOPIC.message(due, 0).notBefore(due.at()));
    shop.advance(Duration.ofHours(2));
    assertThat(sentTo("bob")).containsExactly("reminder");
  }

  @Test
  void the_held_out_go_the_same_way_and_are_sent_nothing() {
    long id = shop.activate(abandonedCart(0.5));
    for (int i = 0; i < 60; i++) shop.hear(did("p" + i, "add_to_cart", "boots"));
    shop.advance(Duration.ofHours(2));
    var figures = shop.figures(id);
    var reminder = figures.steps().get(1);
    assertThat(reminder.sent() + reminder.heldOut()).isEqualTo(60);
    assertThat(reminder.heldOut()).as("about half, by a stable hash").isBetween(15L, 45L);
    assertThat(shop.sender.sent()).hasSize((int) reminder.sent());
    for (var sent : shop.sender.sent())
      assertThat(HoldOut.holds(id, sent.subscriberId(), 0.5)).isFalse();
    var lift = figures.lift().orElseThrow();
    assertThat(lift.sent().trials() + lift.heldOut().trials()).isEqualTo(60);
    var reminderLift = reminder.lift().orElseThrow();
    assertThat(reminderLift.sent().trials()).isEqualTo(reminder.sent());
    assertThat(reminderLift.heldOut().trials()).isEqualTo(reminder.heldOut());
    assertThat(figures.steps().getFirst().lift())
        .as("a wait has no lift of its own")
        .isEmpty();
  }

  @Test
  void a_reader_s_daily_cap_holds_the_second_email_back_until_a_day_after_the_first() {
    shop.limits.put(new ReaderLimits(1, 5, null, null));
    shop.activate(new Journey(
        "Two quick emails",
        new Trigger.Did("add_to_cart", 1, Duration.ofHours(1)),
        EntryRules.ANYONE,
        List.of(
            new Step.Send("reminder", JourneyHarness.REMINDER, "hour"),
            new Step.Wait("hour", new Step.Until.For(Duration.ofHours(1)), "last-call"),
            new Step.Send("last-call", JourneyHarness.LAST_CALL, null)),
        null,
        0));
    Instant start = shop.clock.instant();
    shop.hear(did("bob", "add_to_cart", "scarf"));
    shop.advance(Duration.ofHours(23));
    assertThat(sentTo("bob")).as("the cap holds the second back").containsExactly("reminder");
    shop.advance(Duration.ofHours(2));
    assertThat(sentTo("bob")).containsExactly("reminder", "last-call");
    assertThat(shop.metrics
            .get(JourneyMetrics.HELD_BACK)
            .tag("limit", "day")
            .counter()
            .count())
        .isEqualTo(1);
    assertThat(start).isBefore(shop.clock.instant());
  }

  @Test
  void quiet_hours_where_the_reader_lives_hold_an_email_until_they_end() {
    shop.limits.put(new ReaderLimits(5, 10, LocalTime.of(21, 0), LocalTime.of(8, 0)));
    shop.zones.put("bob", ZoneId.of("Europe/Berlin"));
    shop.activate(abandonedCart(0));
    // 08:00 UTC is 09:00 in Berlin: the reminder an hour later is 10:00 there, outside the quiet
    // hours; after 13 hours it is 22:00 there, inside them
    shop.advance(Duration.ofHours(12));
    shop.hear(did("bob", "add_to_cart", "scarf"));
    shop.advance(Duration.ofHours(2));
    assertThat(sentTo("bob")).as("21:00-08:00 in Berlin").isEmpty();
    shop.advance(Duration.ofHours(9));
    assertThat(sentTo("bob")).containsExactly("reminder");
  }

  @Test
  void a_paused_journey_moves_nobody_until_it_is_activated_again() {
    long id = shop.activate(abandonedCart(0));
    shop.hear(did("bob", "add_to_cart", "scarf"));
    shop.state(id, JourneyState.PAUSED);
    shop.advance(Duration.ofHours(3));
    assertThat(sentTo("bob")).isEmpty();
    shop.hear(did("cy", "add_to_cart", "scarf"));
    assertThat(shop.figures(id).entries()).as("a paused journey lets nobody in").isEqualTo(1);

    shop.state(id, JourneyState.ACTIVE);
    assertThat(shop.runtime.sweep())
        .as("bob is overdue, his message dropped while paused")
        .isOne();
    shop.step();
    assertThat(sentTo("bob")).containsExactly("reminder");
  }

  @Test
  void a_draining_journey_lets_nobody_in_and_takes_who_is_inside_to_the_end() {
    long id = shop.activate(abandonedCart(0));
    shop.hear(did("bob", "add_to_cart", "scarf"));
    shop.state(id, JourneyState.DRAINING);
    shop.hear(did("cy", "add_to_cart", "scarf"));
    shop.advance(Duration.ofHours(26));
    assertThat(sentTo("bob")).containsExactly("reminder", "last-call");
    assertThat(shop.figures(id).entries()).isEqualTo(1);
  }

  @Test
  void the_same_product_viewed_three_times_in_a_day_lets_a_person_in() {
    long id = shop.activate(new Journey(
        "Browse",
        new Trigger.Did("view", 3, Duration.ofDays(1)),
        EntryRules.ANYONE,
        List.of(new Step.Send("nudge", JourneyHarness.REMINDER, null)),
        "purchase",
        0));
    shop.hear(did("bob", "view", "scarf"), did("bob", "view", "scarf"), did("bob", "view", "hat"));
    assertThat(shop.figures(id).entries()).isZero();
    shop.advance(Duration.ofHours(2));
    shop.hear(did("bob", "view", "scarf"));
    assertThat(shop.figures(id).entries()).isEqualTo(1);
    assertThat(sentTo("bob")).hasSize(1);
  }

  @Test
  void a_product_back_in_stock_lets_in_who_viewed_it_with_the_product_as_their_entry() {
    long id = shop.activate(new Journey(
        "Back in stock",
        new Trigger.ProductNews(
            Trigger.News.BACK_IN_STOCK, Trigger.Interest.VIEWED, Duration.ofDays(30)),
        EntryRules.ANYONE,
        List.of(new Step.Send("back", JourneyHarness.REMINDER, null)),
        "purchase",
        0));
    shop.hear(did("bob", "view", "boots"), did("cy", "view", "hat"));
    shop.advance(Duration.ofDays(3));
    shop.hear(new BackInStock(
        "boots",
        "Boots",
        null,
        "https://shop.test/boots",
        "https://img.shop.test/boots.jpg",
        shop.clock.instant()));
    assertThat(shop.figures(id).entries()).isEqualTo(1);
    assertThat(sentTo("bob")).hasSize(1);
    var run = shop.sender.sent().getFirst();
    var items = new EntryItems(
        database.jdbi(),
        journey -> java.util.Optional.of(
            shop.store.latest(journey).orElseThrow().journey().trigger()));
    assertThat(items.of(run.campaignId(), run.runId(), List.of("bob", "cy")))
        .containsExactly(
            java.util.Map.entry("bob", new EntryItems.Items(List.of("boots"), "back_in_stock")));
  }

  @Test
  void an_erased_person_is_gone_from_every_journeys_table() {
    shop.activate(abandonedCart(0));
    shop.hear(did("bob", "add_to_cart", "scarf"));
    shop.advance(Duration.ofHours(2));
    shop.hear(did("bob", "purchase", "scarf"), new Erased("bob", shop.clock.instant()));
    for (String table :
        List.of("journey_instances", "journey_facts", "journey_sends", "journey_signals")) {
      long rows = database
          .jdbi()
          .withHandle(handle -> handle
              .createQuery("SELECT count(*) FROM " + table + " WHERE subscriber_id = 'bob'")
              .mapTo(Long.class)
              .one());
      assertThat(rows).as(table).isZero();
    }
  }

  @Test
  void a_win_back_finds_who_last_bought_its_period_ago_each_once_whenever_it_looks() {
    long id = shop.activate(new Journey(
        "Win-back",
        new Trigger.Lapsed(Duration.ofDays(90)),
        new EntryRules(Duration.ofDays(90), null),
        List.of(new Step.Send("miss-you", JourneyHarness.REMINDER, null)),
        "purchase",
        0));
    Instant now = shop.clock.instant();
    shop.lastPurchase.put("ann", now.minus(Duration.ofDays(90)).minus(Duration.ofHours(3)));
    shop.lastPurchase.put("bob", now.minus(Duration.ofDays(30)));
    shop.lastPurchase.put("cy", now.minus(Duration.ofDays(200)));
    assertThat(shop.runtime.lookForLapsed())
        .as("ann, within the first look's day")
        .isOne();
    assertThat(shop.runtime.lookForLapsed()).as("nobody twice").isZero();

    // the node was down for two days: the next look covers them
    shop.lastPurchase.put("dee", now.minus(Duration.ofDays(89)));
    shop.advance(Duration.ofDays(2));
    assertThat(shop.runtime.lookForLapsed()).as("dee").isOne();
    shop.step();
    assertThat(shop.sender.sent())
        .extracting(RecordingStepSender.Sent::subscriberId)
        .containsExactly("ann", "dee");
    assertThat(shop.figures(id).entries()).isEqualTo(2);
  }

  @Test
  void an_open_counts_in_the_funnel_of_the_step_whose_email_was_opened() {
    long id = shop.activate(abandonedCart(0));
    shop.hear(did("bob", "add_to_cart", "scarf"));
    shop.advance(Duration.ofHours(26));
    var reminder = shop.sender.sent().getFirst();
    shop.hear(new dev.tidings.events.delivery.Opened(
        new dev.tidings.message.MessageId(reminder.campaignId(), reminder.runId(), "bob").text(),
        reminder.campaignId(),
        "bob",
        shop.clock.instant()));
    var steps = shop.figures(id).steps();
    assertThat(steps)
        .extracting(JourneyFigures.StepFigures::opened)
        .as("the reminder's open, not the last call's")
        .containsExactly(0L, 1L, 0L, 0L);
  }
}
