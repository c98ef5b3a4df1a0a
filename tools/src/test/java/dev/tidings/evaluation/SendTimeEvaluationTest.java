package dev.tidings.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SendTimeEvaluationTest {
  private static SendTimeEvaluation.Options options(int weeks, long seed) {
    return new SendTimeEvaluation.Options(4_000, weeks, 0.2, 0.1, Duration.ofHours(24), 0.1, seed);
  }

  private static SendTimeEvaluation.Rate rate(SendTimeEvaluation.Report report, String policy) {
    return report.rates().stream()
        .filter(r -> r.policy().equals(policy))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void the_same_seed_gives_the_same_report() {
    var a = SendTimeEvaluation.run(options(4, 7), done -> {});
    var b = SendTimeEvaluation.run(options(4, 7), done -> {});
    assertThat(a.rates()).isEqualTo(b.rates());
    assertThat(a.pastOpens()).isEqualTo(b.pastOpens());
  }

  @Test
  void every_reader_is_in_at_once_and_the_oracle_and_in_one_cohort() {
    var report = SendTimeEvaluation.run(options(4, 11), done -> {});
    assertThat(rate(report, "at once").readers()).isEqualTo(4_000);
    assertThat(rate(report, "oracle").readers()).isEqualTo(4_000);
    assertThat(rate(report, "timed").readers() + rate(report, "hold-out").readers())
        .isEqualTo(4_000);
    assertThat(rate(report, "hold-out").readers()).isBetween(300L, 500L);
    for (var rate : report.rates()) assertThat(rate.low()).isLessThanOrEqualTo(rate.rate());
  }

  @Test
  void on_these_readers_knowing_the_hours_beats_sending_at_once_and_history_helps() {
    var none = SendTimeEvaluation.run(options(0, 3), done -> {});
    var long_ = SendTimeEvaluation.run(options(12, 3), done -> {});
    assertThat(none.pastOpens()).isZero();
    assertThat(rate(long_, "oracle").rate())
        .isGreaterThan(rate(long_, "at once").rate());
    assertThat(rate(long_, "timed").rate()).isGreaterThan(rate(none, "timed").rate());
  }

  @Test
  void an_email_landing_just_before_a_habitual_hour_is_opened_more_than_one_buried_for_hours() {
    var berlin = ZoneId.of("Europe/Berlin");
    var reader = HabitualReader.draw(
        "r", berlin, berlin, HabitualReader.Habit.EVENINGS, new SplittableRandom(1));
    // the evening hours are 19-22 local (with the reader's own shift): land at 18:55 or at 07:00
    Instant justBefore = Instant.parse("2026-03-03T17:55:00Z");
    Instant morning = Instant.parse("2026-03-03T06:00:00Z");
    int openedJustBefore = 0;
    int openedMorning = 0;
    for (int i = 0; i < 2_000; i++) {
      if (reader.open(justBefore, new SplittableRandom(i)).isPresent()) openedJustBefore++;
      if (reader.open(morning, new SplittableRandom(i)).isPresent()) openedMorning++;
    }
    assertThat(openedJustBefore).isGreaterThan(openedMorning);
  }
}
