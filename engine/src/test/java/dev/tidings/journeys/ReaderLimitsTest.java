package dev.tidings.journeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReaderLimitsTest {
  private static final ZoneId UTC = ZoneId.of("UTC");
  private static final Instant NOON = Instant.parse("2026-06-08T12:00:00Z");

  @Test
  void within_the_caps_and_outside_quiet_hours_an_email_goes_now() {
    var limits = new ReaderLimits(2, 5, LocalTime.of(21, 0), LocalTime.of(8, 0));
    assertThat(limits.earliest(List.of(NOON.minus(Duration.ofHours(3))), UTC, NOON))
        .isEqualTo(NOON);
  }

  @Test
  void past_the_daily_cap_it_waits_until_the_oldest_send_of_the_day_leaves_the_window() {
    var limits = new ReaderLimits(2, 10, null, null);
    Instant first = NOON.minus(Duration.ofHours(20));
    Instant second = NOON.minus(Duration.ofHours(2));
    assertThat(limits.earliest(List.of(second, first), UTC, NOON))
        .isEqualTo(first.plus(Duration.ofDays(1)));
  }

  @Test
  void past_the_weekly_cap_it_waits_for_the_week_and_then_for_the_quiet_hours_to_end() {
    var limits = new ReaderLimits(1, 2, LocalTime.of(21, 0), LocalTime.of(8, 0));
    // the week's first send leaves the window at 23:00, inside the quiet hours: 08:00 the next day
    Instant weekAgo = Instant.parse("2026-06-01T23:00:00Z");
    Instant yesterday = Instant.parse("2026-06-07T09:00:00Z");
    assertThat(limits.earliest(List.of(weekAgo, yesterday), UTC, NOON))
        .isEqualTo(Instant.parse("2026-06-09T08:00:00Z"));
  }

  @Test
  void quiet_hours_are_the_readers_own_across_midnight() {
    var limits = new ReaderLimits(5, 10, LocalTime.of(21, 0), LocalTime.of(8, 0));
    ZoneId tokyo = ZoneId.of("Asia/Tokyo"); // noon UTC is 21:00 in Tokyo
    assertThat(limits.earliest(List.of(), tokyo, NOON))
        .isEqualTo(Instant.parse("2026-06-08T23:00:00Z")); // 08:00 the next day in Tokyo
  }

  @Test
  void limits_that_could_never_be_met_are_refused() {
    assertThatThrownBy(() -> new ReaderLimits(0, 5, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReaderLimits(3, 2, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReaderLimits(3, 5, LocalTime.NOON, null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
