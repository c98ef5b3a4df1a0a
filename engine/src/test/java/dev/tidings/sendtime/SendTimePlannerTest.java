package dev.tidings.sendtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The planner alone. Times are in the week of Monday 2026-03-02 (00:00 UTC is hour of the week 0).
 */
class SendTimePlannerTest {
  private static final Instant MONDAY = Instant.parse("2026-03-02T00:00:00Z");
  private static final ZoneId UTC = ZoneOffset.UTC;

  private static Instant at(String time) {
    return Instant.parse("2026-03-" + time + "Z");
  }

  /** Everyone's opens: {@code opens} at each of the given hours of the week. */
  private static long[] everyone(long opens, int... hours) {
    long[] out = new long[HourOfWeek.HOURS];
    for (int hour : hours) out[hour] = opens;
    return out;
  }

  private static int[] opens(int count, int hour) {
    int[] out = new int[HourOfWeek.HOURS];
    out[hour] = count;
    return out;
  }

  private static SendTimePlanner planner(Instant start, Duration within, long[] everyone) {
    return new SendTimePlanner(7, start, within, 0, everyone);
  }

  @Test
  void hours_of_the_week_start_on_monday_in_utc() {
    assertThat(HourOfWeek.of(MONDAY)).isZero();
    assertThat(HourOfWeek.of(at("02T09:59:59"))).isEqualTo(9);
    assertThat(HourOfWeek.of(at("08T23:00:00"))).isEqualTo(167);
    assertThat(HourOfWeek.of(at("09T00:00:00"))).isZero();
    assertThat(HourOfWeek.of(Instant.parse("1969-12-29T01:00:00Z"))).isEqualTo(1);
  }

  @Test
  void the_candidates_are_the_start_then_each_whole_hour_before_the_end() {
    var planner = planner(at("02T08:30:00"), Duration.ofHours(3), new long[168]);
    assertThat(planner.candidates())
        .containsExactly(
            at("02T08:30:00"), at("02T09:00:00"), at("02T10:00:00"), at("02T11:00:00"));
    assertThat(planner(at("02T08:00:00"), Duration.ofHours(1), new long[168]).candidates())
        .containsExactly(at("02T08:00:00"));
  }

  @Test
  void a_long_history_wins_over_the_audience_and_a_short_one_is_shrunk_towards_it() {
    // everyone opens at Monday 18:00 (hour 18); the subscriber's own opens are at 12:00
    var planner = planner(MONDAY, Duration.ofHours(24), everyone(1_000, 18));
    var many = planner.plan("a", UTC, opens(5, 12));
    assertThat(many.at()).isEqualTo(at("02T12:00:00"));
    assertThat(many.source()).isEqualTo(Source.history);
    // three opens at 12:00 weigh less than the audience's shape, worth PRIOR_WEIGHT = 4 opens at 18
    assertThat(planner.plan("b", UTC, opens(3, 12)).at()).isEqualTo(at("02T18:00:00"));
    assertThat(planner.plan("b", UTC, opens(3, 12)).source()).isEqualTo(Source.history);
  }

  @Test
  void the_audience_spreads_over_hours_so_a_few_opens_beat_a_flat_shape() {
    var flat = planner(MONDAY, Duration.ofHours(24), new long[168]);
    assertThat(flat.plan("a", UTC, opens(1, 20)).at()).isEqualTo(at("02T20:00:00"));
  }

  @Test
  void an_hour_outside_the_window_is_never_chosen() {
    // opens on Tuesday 12:00 (hour 36), a window of Monday 00:00-06:00
    var planner = planner(MONDAY, Duration.ofHours(6), everyone(10, 3));
    var slot = planner.plan("a", UTC, opens(50, 36));
    assertThat(slot.at()).isEqualTo(at("02T03:00:00"));
    assertThat(slot.at()).isBefore(MONDAY.plus(Duration.ofHours(6)));
  }

  @Test
  void without_opens_the_time_zone_gives_nine_in_the_morning_local() {
    var planner = planner(MONDAY, Duration.ofHours(24), everyone(100, 18));
    var tokyo = planner.plan("a", ZoneId.of("Asia/Tokyo"), null);
    assertThat(tokyo.source()).isEqualTo(Source.time_zone);
    assertThat(tokyo.at()).isEqualTo(at("02T00:00:00")); // 09:00 in Tokyo (UTC+9)
    var newYork = planner.plan("b", ZoneId.of("America/New_York"), new int[168]);
    assertThat(newYork.at()).isEqualTo(at("02T14:00:00")); // 09:00 EST
    // a window that holds no 09:00 local: the nearest local hour to it
    var early = planner(MONDAY, Duration.ofHours(3), new long[168]);
    assertThat(early.plan("c", ZoneId.of("Europe/Paris"), null).at())
        .isEqualTo(at("02T02:00:00")); // 03:00 in Paris, the latest of 01:00-03:00
  }

  @Test
  void with_neither_opens_nor_a_time_zone_the_audience_peak_in_the_window() {
    var planner = planner(MONDAY, Duration.ofHours(24), everyone(100, 18, 40));
    var slot = planner.plan("a", UTC, null);
    assertThat(slot.source()).isEqualTo(Source.audience);
    assertThat(slot.at()).isEqualTo(at("02T18:00:00"));
    // nobody has opened anything yet: every hour ties, the earliest wins, which is at once
    assertThat(planner(at("02T07:15:00"), Duration.ofHours(24), new long[168])
            .plan("b", UTC, null)
            .at())
        .isEqualTo(at("02T07:15:00"));
  }

  @Test
  void the_hold_out_is_deterministic_sent_at_once_and_near_its_share() {
    int held = 0;
    for (int i = 0; i < 100_000; i++) {
      boolean once = SendTimePlanner.heldOut(42, "s" + i, 0.1);
      assertThat(SendTimePlanner.heldOut(42, "s" + i, 0.1)).isEqualTo(once);
      if (once) held++;
    }
    // binomial(100,000, 0.1): standard deviation about 95
    assertThat(held).isBetween(9_600, 10_400);
    assertThat(SendTimePlanner.heldOut(42, "s1", 0)).isFalse();
    // another campaign holds out other people
    long overlap = IntStream.range(0, 10_000)
        .filter(i ->
            SendTimePlanner.heldOut(42, "s" + i, 0.5) && SendTimePlanner.heldOut(43, "s" + i, 0.5))
        .count();
    assertThat(overlap).isBetween(2_300L, 2_700L);

    var planner =
        new SendTimePlanner(42, at("02T08:30:00"), Duration.ofHours(24), 0.5, new long[168]);
    String heldOut = IntStream.range(0, 100)
        .mapToObj(i -> "s" + i)
        .filter(id -> SendTimePlanner.heldOut(42, id, 0.5))
        .findFirst()
        .orElseThrow();
    var slot = planner.plan(heldOut, ZoneId.of("Asia/Tokyo"), opens(9, 20));
    assertThat(slot.heldOut()).isTrue();
    assertThat(slot.at()).isEqualTo(at("02T08:30:00"));
  }

  @Test
  void a_window_shorter_than_an_hour_is_refused() {
    assertThatThrownBy(() -> planner(MONDAY, Duration.ofMinutes(30), new long[168]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
