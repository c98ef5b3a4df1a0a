package dev.tidings.queue.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LaneBufferTest {
  private static final long WAIT = 50_000_000L;
  private long now = 1_000L;

  @Test
  void the_highest_lane_goes_first_and_each_lane_in_arrival_order() {
    var buffer = new LaneBuffer<String>(10, 5, 0, WAIT);
    buffer.delivered(1, "low-a", 1);
    buffer.delivered(1, "low-b", 2);
    buffer.delivered(8, "high-a", 3);
    buffer.delivered(8, "high-b", 4);

    assertThat(buffer.take(10, now)).containsExactly("high-a", "high-b", "low-a", "low-b");
  }

  @Test
  void a_lane_expected_to_deliver_holds_lower_lanes_back_until_it_does_or_its_wait_ends() {
    var buffer = new LaneBuffer<String>(10, 1, 0, WAIT);
    buffer.delivered(9, "urgent-1", 1);
    buffer.delivered(0, "bulk", 2);
    assertThat(buffer.take(1, now)).containsExactly("urgent-1");

    buffer.settled(9, now); // its prefetch of 1 was full: the broker may send the next urgent one
    assertThat(buffer.take(1, now))
        .as("bulk must not overtake an urgent refill")
        .isEmpty();
    assertThat(buffer.nextDeadline(now)).hasValue(now + WAIT);

    buffer.delivered(9, "urgent-2", 3);
    assertThat(buffer.take(1, now)).containsExactly("urgent-2");

    buffer.settled(9, now);
    assertThat(buffer.take(1, now + WAIT - 1)).isEmpty();
    assertThat(buffer.take(1, now + WAIT)).as("the lane stayed empty").containsExactly("bulk");
  }

  @Test
  void lanes_with_waiting_messages_at_the_start_are_expected() {
    var buffer = new LaneBuffer<String>(3, 4, 0, WAIT);
    buffer.expect(2, 2, now);
    buffer.expect(1, 0, now);
    buffer.expect(0, 7, now);
    buffer.delivered(0, "low", 1);
    assertThat(buffer.take(4, now)).isEmpty();

    buffer.delivered(2, "high-1", 2);
    assertThat(buffer.take(4, now)).as("one more high one is on its way").containsExactly("high-1");
    buffer.delivered(2, "high-2", 3);
    assertThat(buffer.take(4, now)).containsExactly("high-2", "low");
  }

  @Test
  void every_nth_delivery_goes_to_the_oldest_head_whatever_its_lane() {
    var buffer = new LaneBuffer<String>(10, 100, 3, WAIT);
    for (int i = 0; i < 4; i++) buffer.delivered(1, "bulk" + i, i);
    for (int i = 0; i < 8; i++) buffer.delivered(8, "trig" + i, 100 + i);

    List<String> order = buffer.take(12, now);

    assertThat(order)
        .containsExactly(
            "trig0", "trig1", "bulk0", "trig2", "trig3", "bulk1", "trig4", "trig5", "bulk2",
            "trig6", "trig7", "bulk3");
  }

  @Test
  void strict_when_oldest_every_is_zero() {
    var buffer = new LaneBuffer<String>(10, 100, 0, WAIT);
    buffer.delivered(0, "old", 0);
    buffer.delivered(5, "new", 10);
    assertThat(buffer.take(2, now)).containsExactly("new", "old");
  }

  @Test
  void a_reset_forgets_what_the_lost_channel_held() {
    var buffer = new LaneBuffer<String>(2, 1, 0, WAIT);
    buffer.delivered(1, "gone", 1);
    buffer.settled(1, now);
    buffer.reset();
    buffer.delivered(0, "after", 2);
    assertThat(buffer.take(2, now)).containsExactly("after");
    assertThat(buffer.drain()).isEmpty();
  }
}
