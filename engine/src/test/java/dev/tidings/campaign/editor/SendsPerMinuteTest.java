package dev.tidings.campaign.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SendsPerMinuteTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-27T10:00:00Z"));
  private final InstantSource clock = now::get;

  @Test
  void the_limit_holds_within_a_minute_and_says_when_the_oldest_leaves_it() {
    var limit = new SendsPerMinute(2, clock);
    assertThat(limit.take()).isEmpty();
    now.set(now.get().plusSeconds(20));
    assertThat(limit.take()).isEmpty();
    now.set(now.get().plusSeconds(10));

    assertThat(limit.take()).contains(Duration.ofSeconds(30));

    now.set(now.get().plusSeconds(30));
    assertThat(limit.take()).as("the first left the window").isEmpty();
    assertThat(limit.take()).contains(Duration.ofSeconds(20));
  }
}
