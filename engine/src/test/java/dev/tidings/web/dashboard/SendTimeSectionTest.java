package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.delivery.SendTimeOutcomes;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SendTimeSectionTest {
  @Test
  void planned_hours_and_each_cohorts_opens_are_shown_as_shares_of_its_emails() {
    long[] timed = new long[SendTimeOutcomes.HOURS_SHOWN];
    timed[0] = 30;
    timed[3] = 10;
    long[] heldOut = new long[SendTimeOutcomes.HOURS_SHOWN];
    heldOut[5] = 2;
    var view = SendTimeSection.of(
        List.of(
            Map.entry(Instant.parse("2026-03-02T06:00:00Z"), 10L),
            Map.entry(Instant.parse("2026-03-02T18:00:00Z"), 90L)),
        List.of(
            new SendTimeOutcomes.Cohort("timed", 90, 40, 40 / 90.0, timed),
            new SendTimeOutcomes.Cohort("held out", 10, 2, 0.2, heldOut)));
    var planned = view.planned().getFirst().rows();
    assertThat(planned)
        .extracting(CampaignPage.Bar::label)
        .containsExactly("Mon 06:00 UTC", "Mon 18:00 UTC");
    assertThat(planned).extracting(CampaignPage.Bar::width).containsExactly("11.1%", "100.0%");
    assertThat(view.sent()).isTrue();
    assertThat(view.rates())
        .extracting(CampaignPage.Fact::label)
        .containsExactly("Human open rate, timed (90 sent)", "Human open rate, held out (10 sent)");
    assertThat(view.anyOpens()).isTrue();
    var hours = view.opens();
    assertThat(hours).hasSize(SendTimeSection.HOURS);
    // 30 of 90 is the largest share: its bar is the full width, 2 of 10 is 60% of it
    assertThat(hours.get(0).timedWidth()).isEqualTo("100.0%");
    assertThat(hours.get(0).heldOutWidth()).isEqualTo("0.0%");
    assertThat(hours.get(5).heldOutWidth()).isEqualTo("60.0%");
    assertThat(hours.get(5).timedWidth()).isEqualTo("0.0%");
  }

  @Test
  void sent_but_not_yet_opened_by_anyone_shows_the_rates_and_no_empty_hours() {
    var view = SendTimeSection.of(
        List.of(Map.entry(Instant.parse("2026-03-02T06:00:00Z"), 6L)),
        List.of(
            new SendTimeOutcomes.Cohort("timed", 5, 0, 0, new long[SendTimeOutcomes.HOURS_SHOWN]),
            new SendTimeOutcomes.Cohort(
                "held out", 1, 0, 0, new long[SendTimeOutcomes.HOURS_SHOWN])));
    assertThat(view.sent()).isTrue();
    assertThat(view.rates()).hasSize(2);
    assertThat(view.anyOpens()).isFalse();
    assertThat(view.opens()).isEmpty();
  }

  @Test
  void before_anything_is_sent_only_the_plan_is_shown() {
    var view = SendTimeSection.of(
        List.of(Map.entry(Instant.parse("2026-03-02T06:00:00Z"), 5L)), List.of());
    assertThat(view.sent()).isFalse();
    assertThat(view.planned().getFirst().rows()).hasSize(1);
    assertThat(view.opens()).isEmpty();
  }
}
