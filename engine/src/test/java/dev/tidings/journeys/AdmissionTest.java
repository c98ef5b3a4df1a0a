package dev.tidings.journeys;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AdmissionTest {
  private static final Instant NOW = Instant.parse("2026-06-08T10:00:00Z");
  private static final EntryRules THREE_DAYS = new EntryRules(Duration.ofDays(3), null);

  @Test
  void one_journey_at_a_time_per_person() {
    assertThat(Admission.decide(THREE_DAYS, true, 1, Optional.of(NOW.minusSeconds(60)), false, NOW))
        .isEqualTo(new Admission.Refused(Admission.Why.ALREADY_INSIDE));
  }

  @Test
  void a_second_cart_a_week_later_is_a_new_entry_and_one_a_day_later_is_not() {
    assertThat(Admission.decide(
            THREE_DAYS, false, 1, Optional.of(NOW.minus(Duration.ofDays(7))), false, NOW))
        .isEqualTo(new Admission.Admitted(2));
    assertThat(Admission.decide(
            THREE_DAYS, false, 1, Optional.of(NOW.minus(Duration.ofDays(1))), false, NOW))
        .isEqualTo(new Admission.Refused(Admission.Why.TOO_SOON));
  }

  @Test
  void a_journey_for_a_segment_lets_in_only_its_members() {
    var rules = new EntryRules(
        Duration.ZERO,
        new dev.tidings.campaign.Audience.Segment(
            List.of(new dev.tidings.campaign.Condition.LocaleIn(List.of("de")))));
    assertThat(Admission.decide(rules, false, 0, Optional.empty(), false, NOW))
        .isEqualTo(new Admission.Refused(Admission.Why.NOT_IN_SEGMENT));
    assertThat(Admission.decide(rules, false, 0, Optional.empty(), true, NOW))
        .isEqualTo(new Admission.Admitted(1));
  }
}
