package dev.tidings.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueRecordsTest {
  @Test
  void records_with_bodies_compare_by_content() {
    assertThat(new Message(new byte[] {1, 2}, 3, Map.of("k", "v")))
        .isEqualTo(new Message(new byte[] {1, 2}, 3, Map.of("k", "v")))
        .hasSameHashCodeAs(new Message(new byte[] {1, 2}, 3, Map.of("k", "v")))
        .isNotEqualTo(new Message(new byte[] {1, 3}, 3, Map.of("k", "v")));
    assertThat(new Delivery("id", new byte[] {7}, 1, 2, Map.of()))
        .isEqualTo(new Delivery("id", new byte[] {7}, 1, 2, Map.of()))
        .isNotEqualTo(new Delivery("id", new byte[] {8}, 1, 2, Map.of()));
    Instant at = Instant.parse("2026-11-23T10:00:00Z");
    assertThat(new DeadLetter("id", new byte[] {9}, 0, 3, "why", at, Map.of()))
        .isEqualTo(new DeadLetter("id", new byte[] {9}, 0, 3, "why", at, Map.of()))
        .isNotEqualTo(new DeadLetter("id", new byte[] {9, 9}, 0, 3, "why", at, Map.of()));
  }

  @Test
  void a_message_is_due_after_its_delay_and_one_too_far_ahead_is_refused() {
    Instant now = Instant.parse("2026-03-01T10:00:00Z");
    Message message = new Message(new byte[] {1}, 2, Map.of("k", "v"));
    assertThat(message.notBefore()).isNull();
    assertThat(message.delayAfter(now)).isZero();
    assertThat(message.notBefore(now.minusSeconds(5)).delayAfter(now)).isZero();
    assertThat(message.notBefore(now).delayAfter(now)).isZero();
    Message later = message.notBefore(now.plusMillis(1_500));
    assertThat(later.delayAfter(now)).isEqualTo(Duration.ofMillis(1_500));
    assertThat(later.body()).isEqualTo(message.body());
    assertThat(later.headers()).isEqualTo(message.headers());
    assertThat(later).isNotEqualTo(message).isEqualTo(message.notBefore(now.plusMillis(1_500)));
    assertThat(message.notBefore(now.plus(WorkQueue.MAX_DELAY)).delayAfter(now))
        .isEqualTo(WorkQueue.MAX_DELAY);
    assertThatThrownBy(
            () -> message.notBefore(now.plus(WorkQueue.MAX_DELAY).plusMillis(1)).delayAfter(now))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("longest delay");
  }

  @Test
  void backoff_grows_by_the_multiplier_up_to_its_cap() {
    var policy = new RetryPolicy(Duration.ofSeconds(5), 4, Duration.ofMinutes(10));
    assertThat(policy.backoffAfter(1)).isEqualTo(Duration.ofSeconds(5));
    assertThat(policy.backoffAfter(2)).isEqualTo(Duration.ofSeconds(20));
    assertThat(policy.backoffAfter(3)).isEqualTo(Duration.ofSeconds(80));
    assertThat(policy.backoffAfter(5)).isEqualTo(Duration.ofMinutes(10));
    assertThat(policy.backoffAfter(500)).isEqualTo(Duration.ofMinutes(10));
    assertThat(RetryPolicy.IMMEDIATE.backoffAfter(3)).isEqualTo(Duration.ZERO);
  }

  @Test
  void specs_refuse_what_no_queue_can_honour() {
    assertThatThrownBy(() -> QueueSpec.of("q").withOldestEvery(1))
        .hasMessageContaining("oldestEvery");
    assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(5), 2, Duration.ofSeconds(1)))
        .hasMessageContaining("maxBackoff");
    assertThatThrownBy(() -> QueueSpec.of("q").withHandlerTimeout(Duration.ZERO))
        .hasMessageContaining("handlerTimeout");
  }

  record Event(String id, int count) {}

  @Test
  void a_topic_rejects_a_body_its_codec_cannot_read_and_hands_on_the_rest() throws Exception {
    var topic = new Topic<>(QueueSpec.of("events"), Codec.json(Event.class));
    Delivery good = new Delivery("a", topic.message(new Event("e1", 2), 0).body(), 0, 1, Map.of());
    Delivery bad = new Delivery("b", "{".getBytes(StandardCharsets.UTF_8), 0, 1, Map.of());

    BatchResult result = topic
        .batchHandler(batch -> {
          assertThat(batch).extracting(Topic.Received::value).containsExactly(new Event("e1", 2));
          return BatchResult.ACK_ALL;
        })
        .handle(List.of(good, bad));

    assertThat(result.dispositionOf(good)).isEqualTo(Disposition.ACK);
    assertThat(result.dispositionOf(bad)).isInstanceOf(Disposition.Reject.class);
    assertThat(topic.handler(received -> Disposition.ACK).handle(bad))
        .isInstanceOf(Disposition.Reject.class);
  }
}
