package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A schedule time read in the person's zone, and the zone's clock changes handled on purpose. */
class ScheduleTimeTest {
  private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");
  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  @Test
  void a_time_is_read_in_the_zone_it_was_typed_in() {
    var when = ScheduleTime.read("2026-12-01T09:00", "Europe/Paris", NOW);

    assertThat(when)
        .isEqualTo(new ScheduleTime.When.At(
            Instant.parse("2026-12-01T08:00:00Z"), PARIS, Optional.empty()));
    assertThat(ScheduleTime.read("2026-12-01T09:00", "America/New_York", NOW))
        .extracting(w -> ((ScheduleTime.When.At) w).instant())
        .isEqualTo(Instant.parse("2026-12-01T14:00:00Z"));
  }

  @Test
  void no_zone_is_utc_as_forms_made_before_zones_were() {
    assertThat(ScheduleTime.read("2026-12-01T09:00", "", NOW))
        .extracting(w -> ((ScheduleTime.When.At) w).instant())
        .isEqualTo(Instant.parse("2026-12-01T09:00:00Z"));
    assertThat(ScheduleTime.read("2026-12-01T09:00:00Z", "Europe/Paris", NOW))
        .as("an instant with its offset says its own zone")
        .extracting(w -> ((ScheduleTime.When.At) w).instant())
        .isEqualTo(Instant.parse("2026-12-01T09:00:00Z"));
  }

  @Test
  void an_unknown_zone_is_said_in_plain_words() {
    for (String zone : new String[] {
      "Mars/Olympus", "../../etc/passwd", "Europe/Paris\n", "x".repeat(500), "+25:00", "<b>"
    }) {
      var when = ScheduleTime.read("2026-12-01T09:00", zone, NOW);
      if (zone.equals("Europe/Paris\n")) {
        assertThat(when)
            .as("space around a name is not a problem")
            .isInstanceOf(ScheduleTime.When.At.class);
        continue;
      }
      assertThat(when).as(zone).isInstanceOf(ScheduleTime.When.Wrong.class);
      assertThat(((ScheduleTime.When.Wrong) when).problem())
          .startsWith("zone: ")
          .contains("is not a time zone we know", "Europe/Paris")
          .hasSizeLessThan(200);
    }
  }

  @Test
  void a_time_the_clocks_skip_is_refused_with_the_times_that_exist() {
    // 28 March 2027, Paris: 02:00 becomes 03:00
    var when = ScheduleTime.read("2027-03-28T02:30", "Europe/Paris", NOW);

    assertThat(when).isInstanceOf(ScheduleTime.When.Wrong.class);
    assertThat(((ScheduleTime.When.Wrong) when).problem())
        .isEqualTo("at: Sun 28 Mar 2027, 02:30 does not exist in Europe/Paris: the clocks go"
            + " forward from 02:00 to 03:00 that night. Choose 03:00 or later, or a time before"
            + " 02:00.");
    assertThat(ScheduleTime.read("2027-03-28T03:00", "Europe/Paris", NOW))
        .extracting(w -> ((ScheduleTime.When.At) w).instant())
        .isEqualTo(Instant.parse("2027-03-28T01:00:00Z"));
  }

  @Test
  void a_time_the_clocks_show_twice_is_the_first_and_the_page_says_so() {
    // 31 October 2027, Paris: 03:00 becomes 02:00, so 02:30 is at 00:30 UTC and again at 01:30 UTC
    var when = ScheduleTime.read("2027-10-31T02:30", "Europe/Paris", NOW);

    assertThat(when).isInstanceOf(ScheduleTime.When.At.class);
    var at = (ScheduleTime.When.At) when;
    assertThat(at.instant()).isEqualTo(Instant.parse("2027-10-31T00:30:00Z"));
    assertThat(at.note())
        .hasValue("02:30 happens twice in Europe/Paris that night (the clocks go back): this is the"
            + " first, at UTC+02:00.");
  }

  @Test
  void a_past_or_unreadable_time_is_refused() {
    assertThat(ScheduleTime.read("2026-11-28T12:30", "Europe/Paris", NOW))
        .as("12:30 in Paris is 11:30 UTC, before now")
        .isEqualTo(new ScheduleTime.When.Wrong(
            "at: Sat 28 Nov, 12:30 Europe/Paris has passed; choose a time ahead."));
    assertThat(ScheduleTime.read("tomorrow", "Europe/Paris", NOW))
        .isInstanceOf(ScheduleTime.When.Wrong.class);
    assertThat(ScheduleTime.read("+999999-01-01T00:00", "UTC", NOW))
        .isInstanceOf(ScheduleTime.When.Wrong.class);
  }

  @Test
  void a_time_is_shown_in_the_zone_with_its_name() {
    Instant at = Instant.parse("2026-12-01T08:00:00Z");

    assertThat(ScheduleTime.show(at, PARIS, NOW)).isEqualTo("Tue 1 Dec, 09:00 Europe/Paris");
    assertThat(ScheduleTime.show(at, ZoneOffset.UTC, NOW)).isEqualTo("Tue 1 Dec, 08:00 UTC");
    assertThat(ScheduleTime.show(Instant.parse("2027-01-05T08:00:00Z"), PARIS, NOW))
        .as("another year is named")
        .isEqualTo("Tue 5 Jan 2027, 09:00 Europe/Paris");
    assertThat(ScheduleTime.field(at, PARIS)).isEqualTo("2026-12-01T09:00");
  }
}
