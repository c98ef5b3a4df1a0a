package dev.tidings.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BatchedLookupTest {

  @Test
  void a_lone_lookup_is_answered_at_once_and_a_missing_key_is_empty() {
    List<Set<Integer>> batches = new CopyOnWriteArrayList<>();
    var lookup = new BatchedLookup<Integer, String>(
        "test",
        keys -> {
          batches.add(Set.copyOf(keys));
          Map<Integer, String> found = new HashMap<>();
          for (int key : keys) if (key % 2 == 0) found.put(key, "v" + key);
          return found;
        },
        10,
        1);

    assertThat(lookup.get(4)).contains("v4");
    assertThat(lookup.get(3)).isEmpty();
    assertThat(batches).containsExactly(Set.of(4), Set.of(3));
  }

  @Test
  void lookups_made_while_a_batch_runs_share_the_next_one_and_equal_keys_share_an_answer()
      throws Exception {
    var firstStarted = new CountDownLatch(1);
    var release = new CountDownLatch(1);
    List<Set<Integer>> batches = new CopyOnWriteArrayList<>();
    var lookup = new BatchedLookup<Integer, Integer>(
        "test",
        keys -> {
          batches.add(Set.copyOf(keys));
          if (batches.size() == 1) {
            firstStarted.countDown();
            await(release);
          }
          Map<Integer, Integer> found = new HashMap<>();
          for (int key : keys) found.put(key, key * 10);
          return found;
        },
        100,
        1);
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<Optional<Integer>> first = threads.submit(() -> lookup.get(0));
      assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue();
      List<Future<Optional<Integer>>> waiting = new ArrayList<>();
      for (int i = 1; i <= 50; i++) {
        int key = i % 25 + 1; // each key asked twice
        waiting.add(threads.submit(() -> lookup.get(key)));
      }
      Thread.sleep(300); // the 50 waiters queue behind the running batch
      release.countDown();
      assertThat(first.get(5, TimeUnit.SECONDS)).contains(0);
      for (int i = 0; i < waiting.size(); i++)
        assertThat(waiting.get(i).get(5, TimeUnit.SECONDS)).contains(((i + 1) % 25 + 1) * 10);
    }
    assertThat(batches).hasSize(2);
    assertThat(batches.get(1)).hasSize(25);
  }

  @Test
  void a_failed_batch_fails_its_lookups_and_the_next_batch_runs() {
    var lookup = new BatchedLookup<Integer, Integer>(
        "test",
        keys -> {
          if (keys.contains(13)) throw new IllegalStateException("store down");
          return Map.of(1, 1);
        },
        10,
        2);

    assertThatThrownBy(() -> lookup.get(13))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("store down");
    assertThat(lookup.get(1)).contains(1);
  }

  @Test
  void refuses_a_batch_or_concurrency_below_one() {
    assertThatThrownBy(() -> new BatchedLookup<Integer, Integer>("test", keys -> Map.of(), 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new BatchedLookup<Integer, Integer>("test", keys -> Map.of(), 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
