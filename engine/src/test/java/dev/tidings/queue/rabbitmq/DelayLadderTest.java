package dev.tidings.queue.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.WorkQueue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DelayLadderTest {
  private final DelayLadder ladder = new DelayLadder(RabbitQueueType.CLASSIC);

  @Test
  void a_delay_is_rounded_up_to_whole_seconds_never_down() {
    assertThat(DelayLadder.seconds(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(DelayLadder.seconds(Duration.ofSeconds(1))).isEqualTo(1);
    assertThat(DelayLadder.seconds(Duration.ofMillis(1_001))).isEqualTo(2);
    assertThat(DelayLadder.seconds(Duration.ofDays(3))).isEqualTo(259_200);
  }

  @Test
  void the_routing_key_spells_the_delay_from_the_highest_level_then_the_lane() {
    String key = DelayLadder.routingKey(5, "journeys.p3");
    String[] words = key.split("\\.");
    assertThat(words).hasSize(DelayLadder.LEVELS + 2);
    assertThat(key).startsWith("0.".repeat(DelayLadder.LEVELS - 3)).endsWith(".1.0.1.journeys.p3");
    long spelled = 0;
    for (int i = 0; i < DelayLadder.LEVELS; i++) spelled = spelled * 2 + Long.parseLong(words[i]);
    assertThat(spelled).isEqualTo(5);
    assertThat(ladder.entry(5)).as("it enters at its highest level").isEqualTo(ladder.exchange(2));
    assertThat(ladder.entry(1)).isEqualTo(ladder.exchange(0));
  }

  @Test
  void the_longest_delay_to_the_longest_lane_fits_a_routing_key() {
    String longest = RabbitLayout.laneName("q".repeat(200), QueueSpec.MAX_PRIORITY);
    long most = WorkQueue.MAX_DELAY.toSeconds();
    String key = DelayLadder.routingKey(most, longest);
    assertThat(key.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
    assertThat(key).startsWith("1.".repeat(DelayLadder.LEVELS));
    assertThat(ladder.entry(most)).isEqualTo(ladder.exchange(DelayLadder.LEVELS - 1));
    assertThatThrownBy(() -> DelayLadder.routingKey(most + 1, longest))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DelayLadder.routingKey(0, longest))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void each_level_holds_its_power_of_two_seconds_and_hands_on_to_the_level_below() {
    assertThat(ladder.levelArguments(0))
        .containsEntry("x-message-ttl", 1_000L)
        .containsEntry("x-dead-letter-exchange", ladder.dueExchange());
    assertThat(ladder.levelArguments(10))
        .containsEntry("x-message-ttl", 1_024_000L)
        .containsEntry("x-dead-letter-exchange", ladder.exchange(9))
        .doesNotContainKey("x-dead-letter-routing-key"); // the key carries the rest of the way
    assertThat(new DelayLadder(RabbitQueueType.QUORUM).levelArguments(3))
        .containsEntry("x-queue-type", "quorum")
        .containsEntry("x-dead-letter-strategy", "at-least-once")
        .containsEntry("x-overflow", "reject-publish")
        .containsEntry("x-dead-letter-exchange", "tidings.delay.quorum.2");
    assertThat(ladder.queue(0)).isNotEqualTo(new DelayLadder(RabbitQueueType.QUORUM).queue(0));
  }
}
