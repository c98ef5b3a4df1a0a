package dev.tidings.opentime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentLookupsTest {
  @Test
  void concurrent_misses_of_one_key_share_one_lookup_and_later_calls_none() throws Exception {
    var lookups = new AtomicInteger();
    var lookup = new RecentLookups<String, String>(
        key -> {
          lookups.incrementAndGet();
          sleep(50);
          return Optional.of(key.toUpperCase(Locale.ROOT));
        },
        Duration.ofMinutes(1),
        100);
    var start = new CountDownLatch(1);
    List<Future<Optional<String>>> answers = new ArrayList<>();
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 10; i++)
        answers.add(pool.submit(() -> {
          start.await();
          return lookup.get("ada");
        }));
      start.countDown();
      for (Future<Optional<String>> answer : answers) assertThat(answer.get()).contains("ADA");
    }

    assertThat(lookup.get("ada")).contains("ADA");
    assertThat(lookups).hasValue(1);
  }

  @Test
  void a_failed_lookup_is_not_kept() {
    var calls = new AtomicInteger();
    var lookup = new RecentLookups<String, String>(
        key -> {
          if (calls.incrementAndGet() == 1) throw new IllegalStateException("database down");
          return Optional.of("back");
        },
        Duration.ofMinutes(1),
        100);

    assertThatThrownBy(() -> lookup.get("k")).hasMessageContaining("database down");
    assertThat(lookup.get("k")).contains("back");
  }

  @Test
  void an_answer_is_looked_up_again_once_its_time_is_up() {
    var nanos = new AtomicLong();
    var lookups = new AtomicInteger();
    var lookup = new RecentLookups<String, Integer>(
        key -> Optional.of(lookups.incrementAndGet()), Duration.ofMinutes(1), 100, nanos::get);

    assertThat(lookup.get("k")).contains(1);
    nanos.addAndGet(Duration.ofSeconds(59).toNanos());
    assertThat(lookup.get("k")).contains(1);
    nanos.addAndGet(Duration.ofSeconds(1).toNanos());
    assertThat(lookup.get("k")).contains(2);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
