package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TallyTest {
  @Test
  void counts_what_was_told_and_is_missing_and_each_extra_copy() {
    Tally tally = Tally.of(List.of("a", "b", "c", "d"), List.of("a", "b", "b", "b", "c", "x"));

    assertThat(tally.acknowledged()).isEqualTo(4);
    assertThat(tally.stored()).isEqualTo(6);
    assertThat(tally.lost()).as("d was told and is not stored").isEqualTo(1);
    assertThat(tally.duplicated()).as("b stored three times").isEqualTo(2);
  }

  @Test
  void the_table_keeps_one_row_a_scenario_in_order() {
    var late = new FaultReport.Outcome(
        "2 b", "rabbit", 10, 10, 0, 0, 3, Duration.ofMillis(1500), "3 | unknown");
    var early = FaultReport.Outcome.of(
        "1 a", "redis", Tally.of(List.of("x"), List.of("x")), 0, Duration.ZERO, "");

    String table = FaultReport.table(List.of(early, late));

    assertThat(table.lines()).hasSize(4);
    assertThat(table.lines().toList().get(2))
        .startsWith("| 1 a | redis | 1 | 1 | 0 | 0 | 0 | 0.0 s");
    assertThat(table.lines().toList().get(3)).contains("| 1.5 s | 3 \\| unknown |");
  }
}
