package dev.tidings.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the startup benchmark reads from a node's requests per second. */
class StartupCurveTest {
  @Test
  void steady_is_the_median_of_the_last_seconds_so_one_stalled_second_does_not_move_it() {
    var curve =
        new StartupCurve("n", new long[] {0, 10, 50, 100, 100, 3, 100, 120}, new double[8], 1.5, 5);
    assertThat(curve.steadyPerSecond()).isEqualTo(100.0);
  }

  @Test
  void an_even_steady_window_takes_the_mean_of_its_two_middle_seconds() {
    var curve = new StartupCurve("n", new long[] {0, 90, 100, 110, 130}, new double[5], 1, 4);
    assertThat(curve.steadyPerSecond()).isEqualTo(105.0);
  }

  @Test
  void the_time_to_a_share_is_the_end_of_the_first_second_that_reached_it() {
    var curve = new StartupCurve(
        "n", new long[] {0, 0, 40, 79, 80, 60, 100, 100, 100}, new double[9], 2.2, 3);
    assertThat(curve.secondsToReach(0.8)).isEqualTo(5);
    assertThat(curve.secondsToReach(0.5)).isEqualTo(4);
    assertThat(curve.secondsToReach(1.5)).isEqualTo(-1);
  }

  @Test
  void a_node_that_never_answered_reaches_no_share() {
    var curve = new StartupCurve("n", new long[] {0, 0, 0}, new double[3], 0, 2);
    assertThat(curve.secondsToReach(0.8)).isEqualTo(-1);
  }

  @Test
  void answered_within_and_spans_add_up_the_seconds() {
    var curve = new StartupCurve("n", new long[] {1, 2, 3, 4, 5, 6}, new double[6], 0, 2);
    assertThat(curve.answeredWithin(3)).isEqualTo(6);
    assertThat(curve.answeredWithin(60)).isEqualTo(21);
    assertThat(curve.spans(2)).containsExactly(1.5, 3.5, 5.5);
  }

  @Test
  void the_chart_has_a_line_per_second_with_each_nodes_count() {
    var slow = new StartupCurve("no-aot", new long[] {0, 10, 100, 100}, new double[4], 1, 2);
    var fast = new StartupCurve("aot", new long[] {50, 100, 100, 100}, new double[4], 1, 2);
    List<String> lines = StartupCurve.chart(List.of(slow, fast), 3);
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).contains("no-aot").contains("aot");
    assertThat(lines.get(1)).startsWith("  1").contains(" 0 ").contains(" 50 ###############");
    assertThat(lines.get(3)).contains("100 ##############################");
  }

  @Test
  void requests_per_cpu_second_divide_each_spans_requests_by_its_cpu() {
    var curve = new StartupCurve(
        "n", new long[] {10, 30, 100, 100, 5}, new double[] {0.5, 1.5, 0.5, 0.5, 0}, 0, 2);
    assertThat(curve.requestsPerCpuSecond(2)).containsExactly(20.0, 200.0);
    assertThat(
            new StartupCurve("n", new long[] {0, 0}, new double[2], 0, 1).requestsPerCpuSecond(2))
        .containsExactly(0.0);
  }

  @Test
  void a_steady_window_longer_than_the_run_is_refused() {
    assertThatThrownBy(() -> new StartupCurve("n", new long[] {1, 2}, new double[2], 0, 3))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
