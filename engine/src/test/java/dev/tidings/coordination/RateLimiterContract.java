package dev.tidings.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.coordination.RateLimiter.Decision;
import dev.tidings.coordination.RateLimiter.Limit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link RateLimiter} must do. The Redis run lets real time pass between calls, so counts are
 * checked against burst + rate x elapsed rather than exactly.
 */
public abstract class RateLimiterContract {
  protected static final Limit TEN_PER_SECOND = new Limit(10, 5);

  protected RateLimiter limiter;

  protected abstract RateLimiter create();

  protected abstract void advance(Duration duration);

  @BeforeEach
  void createImplementation() {
    limiter = create();
  }

  protected static String uniqueKey() {
    return "campaign-" + UUID.randomUUID();
  }

  private int grantsInARow(String key, Limit limit) {
    int granted = 0;
    while (limiter.tryAcquire(key, limit, 1).granted()) {
      granted++;
      if (granted > 1000) throw new AssertionError("the limiter never refuses");
    }
    return granted;
  }

  @Test
  void the_burst_is_granted_then_refused_with_a_sensible_retry_after() {
    String key = uniqueKey();
    for (int i = 0; i < 5; i++)
      assertThat(limiter.tryAcquire(key, TEN_PER_SECOND, 1))
          .isEqualTo(new Decision(true, Duration.ZERO));

    Decision refused = limiter.tryAcquire(key, TEN_PER_SECOND, 1);

    assertThat(refused.granted()).isFalse();
    assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(100));
  }

  @Test
  void the_bucket_refills_with_time() {
    String key = uniqueKey();
    assertThat(grantsInARow(key, TEN_PER_SECOND)).isBetween(5, 6);

    advance(Duration.ofMillis(250)); // 2.5 permits at 10 per second

    assertThat(grantsInARow(key, TEN_PER_SECOND)).isBetween(2, 3);
    advance(Duration.ofSeconds(2));
    assertThat(grantsInARow(key, TEN_PER_SECOND))
        .as("never more than the burst")
        .isBetween(5, 6);
  }

  @Test
  void waiting_the_retry_after_is_enough() {
    String key = uniqueKey();
    Limit slow = new Limit(2, 1);
    assertThat(limiter.tryAcquire(key, slow, 1).granted()).isTrue();
    Decision refused = limiter.tryAcquire(key, slow, 1);
    assertThat(refused.retryAfter()).isBetween(Duration.ofMillis(300), Duration.ofMillis(500));

    advance(refused.retryAfter().plusMillis(20));

    assertThat(limiter.tryAcquire(key, slow, 1).granted()).isTrue();
  }

  @Test
  void several_permits_are_taken_at_once_or_not_at_all() {
    String key = uniqueKey();
    assertThat(limiter.tryAcquire(key, TEN_PER_SECOND, 4).granted()).isTrue();

    Decision refused = limiter.tryAcquire(key, TEN_PER_SECOND, 3);

    assertThat(refused.granted()).isFalse();
    assertThat(refused.retryAfter()).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
    assertThat(limiter.tryAcquire(key, TEN_PER_SECOND, 1).granted())
        .as("the refusal took nothing")
        .isTrue();
  }

  @Test
  void keys_have_independent_buckets() {
    String exhausted = uniqueKey();
    grantsInARow(exhausted, TEN_PER_SECOND);

    assertThat(grantsInARow(uniqueKey(), TEN_PER_SECOND)).isBetween(5, 6);
  }

  @Test
  void concurrent_acquirers_never_get_more_than_burst_plus_refill() {
    String key = uniqueKey();
    Limit limit = new Limit(20, 10);
    long started = System.nanoTime();
    try (Race race = new Race()) {
      List<Future<Integer>> futures = new ArrayList<>();
      for (int t = 0; t < 20; t++) {
        futures.add(race.add(() -> {
          int granted = 0;
          for (int i = 0; i < 10; i++) if (limiter.tryAcquire(key, limit, 1).granted()) granted++;
          return granted;
        }));
      }
      int granted = race.all(futures, Duration.ofSeconds(15)).stream()
          .mapToInt(Integer::intValue)
          .sum();
      double elapsedSeconds = (System.nanoTime() - started) / 1e9;

      assertThat(granted).isGreaterThanOrEqualTo(10).isLessThanOrEqualTo((int)
          Math.floor(10 + 20 * elapsedSeconds));
    }
  }

  @Test
  void impossible_requests_are_rejected() {
    assertThatThrownBy(() -> limiter.tryAcquire(uniqueKey(), TEN_PER_SECOND, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("burst");
    assertThatThrownBy(() -> limiter.tryAcquire(uniqueKey(), TEN_PER_SECOND, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("permits");
    assertThatThrownBy(() -> new Limit(0, 5)).isInstanceOf(IllegalArgumentException.class);
  }
}
