package dev.tidings.journeys;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressTest {
  private static final Instant CART = Instant.parse("2026-06-01T10:00:00Z");
  private static final long REMINDER = 11;
  private static final long LAST_CALL = 12;

  /** The ready-made abandoned cart: an hour, a reminder, a day, a last call; out on a purchase. */
  private static Journey abandonedCart() {
    return new Journey(
        "Abandoned cart",
        new Trigger.Did("cart", 1, Duration.ofHours(1)),
        new EntryRules(Duration.ofDays(3), null),
        List.of(
            new Step.Wait("hour", new Step.Until.For(Duration.ofHours(1)), "reminder"),
            new Step.Send("reminder", REMINDER, "day"),
            new Step.Wait("day", new Step.Until.For(Duration.ofHours(23)), "last-call"),
            new Step.Send("last-call", LAST_CALL, null)),
        "purchase",
        0);
  }

  private static Instance entered(Journey journey) {
    return Instance.entering(1, 1, journey, "ada", 1, CART, List.of("p-1", "p-2"));
  }

  /**
   * Drives one person from entry to exit as a node would, looking when each decision says, and
   * returns the emails sent (campaign ids) and how it ended.
   */
  private record Run(List<Long> sent, Decision.Exit end) {}

  private static Run drive(Journey journey, Instance instance, Scenario facts, Instant start) {
    List<Long> sent = new ArrayList<>();
    Instant now = start;
    Instance at = instance;
    for (int i = 0; i < 20; i++) {
      switch (Progress.next(journey, at, now, facts)) {
        case Decision.Sleep sleep -> {
          at = sleep.instance();
          now = sleep.until();
        }
        case Decision.Send send -> {
          if (!send.instance().heldOut()) sent.add(send.step().campaignId());
          Instance after = Progress.afterSending(send.step(), send.instance(), now);
          if (after == null)
            return new Run(sent, new Decision.Exit(send.instance(), Decision.Reason.COMPLETED));
          at = after;
        }
        case Decision.Exit exit -> {
          return new Run(sent, exit);
        }
      }
    }
    throw new AssertionError("no end after 20 decisions");
  }

  @Test
  void a_person_who_buys_within_the_hour_gets_nothing() {
    var facts = new Scenario().doing("purchase", CART.plus(Duration.ofMinutes(40)));
    Run run = drive(abandonedCart(), entered(abandonedCart()), facts, CART);
    assertThat(run.sent()).isEmpty();
    assertThat(run.end().reason()).isEqualTo(Decision.Reason.GOAL);
  }

  @Test
  void a_person_who_does_not_buy_gets_the_reminder_an_hour_later_then_the_last_call() {
    Journey journey = abandonedCart();
    Decision first = Progress.next(journey, entered(journey), CART, new Scenario());
    assertThat(first).isInstanceOf(Decision.Sleep.class);
    assertThat(((Decision.Sleep) first).until()).isEqualTo(CART.plus(Duration.ofHours(1)));

    Run run = drive(journey, entered(journey), new Scenario(), CART);
    assertThat(run.sent()).containsExactly(REMINDER, LAST_CALL);
    assertThat(run.end().reason()).isEqualTo(Decision.Reason.COMPLETED);
  }

  @Test
  void a_person_who_buys_after_the_reminder_gets_no_second_email() {
    var facts = new Scenario().doing("purchase", CART.plus(Duration.ofHours(5)));
    Journey journey = abandonedCart();
    // the reminder went at the hour: the purchase came after it, before the last call
    Instance afterReminder = Progress.afterSending(
        (Step.Send) journey.step("reminder"),
        entered(journey).movedTo("reminder", CART.plusSeconds(3600)),
        CART.plusSeconds(3600));
    Decision next = Progress.next(journey, afterReminder, CART.plus(Duration.ofHours(24)), facts);
    assertThat(next).isInstanceOf(Decision.Exit.class);
    assertThat(((Decision.Exit) next).reason()).isEqualTo(Decision.Reason.GOAL);
  }

  @Test
  void a_purchase_heard_of_late_still_counts_from_the_entry() {
    // bought 50 minutes in, but the event reached the journey only after the reminder had gone
    var facts = new Scenario().doing("purchase", CART.plus(Duration.ofMinutes(50)));
    Journey journey = abandonedCart();
    Instant hour = CART.plus(Duration.ofHours(1));
    Instance afterReminder = Progress.afterSending(
        (Step.Send) journey.step("reminder"), entered(journey).movedTo("reminder", hour), hour);
    Decision next = Progress.next(journey, afterReminder, CART.plus(Duration.ofHours(24)), facts);
    assertThat(next).isInstanceOf(Decision.Exit.class);
    assertThat(((Decision.Exit) next).reason()).isEqualTo(Decision.Reason.GOAL);
  }

  @Test
  void a_purchase_before_the_entry_does_not_count_as_the_goal() {
    var facts = new Scenario().doing("purchase", CART.minus(Duration.ofDays(2)));
    Run run = drive(abandonedCart(), entered(abandonedCart()), facts, CART);
    assertThat(run.sent()).containsExactly(REMINDER, LAST_CALL);
  }

  @Test
  void a_wait_noticed_late_does_not_push_later_steps_later() {
    Journey journey = abandonedCart();
    // the node looks two hours late: the reminder is due now, the next wait counts from its due
    // time
    Decision late =
        Progress.next(journey, entered(journey), CART.plus(Duration.ofHours(3)), new Scenario());
    assertThat(late).isInstanceOf(Decision.Send.class);
    assertThat(late.instance().since()).isEqualTo(CART.plus(Duration.ofHours(1)));
  }

  @Test
  void a_branch_follows_what_the_person_did_since_they_entered() {
    var journey = new Journey(
        "Browse",
        new Trigger.Did("view", 3, Duration.ofDays(1)),
        EntryRules.ANYONE,
        List.of(
            new Step.Branch("clicked", new Step.Condition.Clicked(), "thanks", "nudge"),
            new Step.Send("thanks", 21, null),
            new Step.Send("nudge", 22, null)),
        null,
        0);
    Instance in = Instance.entering(2, 1, journey, "bo", 1, CART, List.of());
    assertThat(((Decision.Send)
                Progress.next(journey, in, CART, new Scenario().clickedAt(CART.plusSeconds(5))))
            .step()
            .campaignId())
        .isEqualTo(21);
    assertThat(((Decision.Send)
                Progress.next(journey, in, CART, new Scenario().clickedAt(CART.minusSeconds(5))))
            .step()
            .campaignId())
        .isEqualTo(22);
  }

  @Test
  void a_split_sends_stable_shares_of_people_down_each_arm() {
    var journey = new Journey(
        "Welcome",
        new Trigger.SignedUp(),
        EntryRules.ANYONE,
        List.of(
            new Step.Split(
                "ab", List.of(new Step.Split.Arm("a", 30, "a"), new Step.Split.Arm("b", 70, "b"))),
            new Step.Send("a", 31, null),
            new Step.Send("b", 32, null)),
        null,
        0);
    int a = 0;
    for (int i = 0; i < 10_000; i++) {
      Instance in = Instance.entering(3, 1, journey, "s" + i, 1, CART, List.of());
      long campaign = ((Decision.Send) Progress.next(journey, in, CART, new Scenario()))
          .step()
          .campaignId();
      long again = ((Decision.Send)
              Progress.next(journey, in, CART.plusSeconds(60), new Scenario()))
          .step()
          .campaignId();
      assertThat(again).as("the same person, asked again").isEqualTo(campaign);
      if (campaign == 31) a++;
    }
    assertThat(a).isBetween(2_800, 3_200);
  }

  @Test
  void a_wait_until_a_time_of_day_is_that_time_where_the_person_lives_across_a_clock_change() {
    ZoneId paris = ZoneId.of("Europe/Paris");
    // 2026-03-29: clocks in Paris go from 02:00 to 03:00; 02:30 does not exist that night
    Instant evening = Instant.parse("2026-03-28T21:00:00Z"); // 22:00 in Paris
    assertThat(Progress.nextTimeOfDay(LocalTime.of(2, 30), evening, paris))
        .isEqualTo(Instant.parse("2026-03-29T01:30:00Z")); // 03:30 CEST, just past the gap
    assertThat(Progress.nextTimeOfDay(LocalTime.of(9, 0), evening, paris))
        .isEqualTo(Instant.parse("2026-03-29T07:00:00Z"));
    assertThat(Progress.nextTimeOfDay(LocalTime.of(22, 0), evening, paris))
        .as("already that time: due at once")
        .isEqualTo(evening);
  }

  @Test
  void held_out_people_go_the_same_way_and_are_sent_nothing() {
    Journey journey = new Journey(
        "Held",
        new Trigger.SignedUp(),
        EntryRules.ANYONE,
        List.of(new Step.Send("hello", 41, null)),
        null,
        0.5);
    int held = 0;
    for (int i = 0; i < 4_000; i++) {
      Instance in = Instance.entering(4, 1, journey, "h" + i, 1, CART, List.of());
      Run run = drive(journey, in, new Scenario(), CART);
      if (in.heldOut()) {
        held++;
        assertThat(run.sent()).isEmpty();
      } else {
        assertThat(run.sent()).containsExactly(41L);
      }
      assertThat(
              Instance.entering(4, 1, journey, "h" + i, 2, CART.plus(Duration.ofDays(9)), List.of())
                  .heldOut())
          .as("a person is on the same side at every entry")
          .isEqualTo(in.heldOut());
    }
    assertThat(held).isBetween(1_850, 2_150);
  }
}
