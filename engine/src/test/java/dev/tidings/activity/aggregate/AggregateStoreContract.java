package dev.tidings.activity.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.storage.Database;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What {@link AggregateStore} must do on every PostgreSQL behind it, embedded and real. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
public abstract class AggregateStoreContract {
  private Database database;
  private AggregateStore store;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    store = new AggregateStore(database.jdbi());
  }

  @AfterAll
  void close() {
    database.close();
  }

  /** A user of this test alone, so runs on a shared database do not meet. */
  private static String user() {
    return "u-" + UUID.randomUUID();
  }

  private static AggregateKey key(String user, KeyPart.Bucket period) {
    return AggregateKey.of(
        new KeyPart.Text("user"),
        new KeyPart.Text(user),
        new KeyPart.Text("views"),
        new KeyPart.Text("trending"),
        period);
  }

  @Test
  void deltas_add_up_per_key_and_periods_read_back_by_prefix_and_range() {
    String user = user();
    var day1 = new KeyPart.Day(LocalDate.of(2026, 11, 22));
    var day2 = new KeyPart.Day(LocalDate.of(2026, 11, 23));
    var month = Scope.MONTH.bucketOf(LocalDate.of(2026, 11, 23));
    store.add(Map.of(key(user, day1), 1.0, key(user, day2), 2.0, key(user, month), 3.0));
    store.add(Map.of(key(user, day2), 4.0, key(user, month), 4.0));

    String hash = key(user, month).hashKey();
    assertThat(store.read(hash, "", "", 100))
        .containsExactly(
            new AggregateStore.Entry(key(user, month), 7.0),
            new AggregateStore.Entry(key(user, day1), 1.0),
            new AggregateStore.Entry(key(user, day2), 6.0));
    assertThat(store.read(hash, "2026-11-23", "2026-11-30", 100))
        .containsExactly(new AggregateStore.Entry(key(user, day2), 6.0));
    assertThat(store.read("s@user:s@" + user + ":", "", "", 100)).hasSize(3);
    assertThat(store.read("s@user:s@" + user + "%", "", "", 100))
        .as("a prefix is matched literally, not as a pattern")
        .isEmpty();
  }

  @Test
  void concurrent_batches_over_the_same_keys_lose_nothing() throws Exception {
    String user = user();
    var days = new ArrayList<KeyPart.Bucket>();
    for (int d = 0; d < 5; d++)
      days.add(new KeyPart.Day(LocalDate.of(2026, 10, 1).plusDays(d)));
    days.add(new KeyPart.AllTime());
    var expected = new HashMap<AggregateKey, Double>();
    var batches = new ArrayList<Map<AggregateKey, Double>>();
    var random = new Random(42);
    for (int b = 0; b < 40; b++) {
      var batch = new HashMap<AggregateKey, Double>();
      for (int k = 0; k < 4; k++) {
        AggregateKey key = key(user, days.get(random.nextInt(days.size())));
        batch.merge(key, 1.0, Double::sum);
        expected.merge(key, 1.0, Double::sum);
      }
      batches.add(batch);
    }
    try (var threads = Executors.newFixedThreadPool(4)) {
      List<Future<?>> done = new ArrayList<>();
      for (var batch : batches) done.add(threads.submit(() -> store.add(batch)));
      for (Future<?> future : done) future.get();
    }
    var read = new HashMap<AggregateKey, Double>();
    store
        .read(key(user, new KeyPart.AllTime()).hashKey(), "", "", 100)
        .forEach(entry -> read.put(entry.key(), entry.value()));
    assertThat(read).isEqualTo(expected);
  }

  @Test
  void a_day_past_retention_is_dropped_whole_and_can_be_written_again() {
    String user = user();
    var old = new KeyPart.Day(LocalDate.of(2001, 1, 1));
    var kept = new KeyPart.Day(LocalDate.of(2001, 1, 2));
    var otherNode = new AggregateStore(database.jdbi());
    otherNode.add(Map.of(key(user, old), 1.0, key(user, kept), 1.0));

    assertThat(store.dropDaysBefore(LocalDate.of(2001, 1, 2))).isGreaterThanOrEqualTo(1);
    assertThat(store.read(key(user, old).hashKey(), "", "", 100))
        .containsExactly(new AggregateStore.Entry(key(user, kept), 1.0));

    // the other node still thinks the dropped day's partition exists, and writes to it again
    otherNode.add(Map.of(key(user, old), 5.0));
    assertThat(store.read(key(user, old).hashKey(), "2001-01-01", "2001-01-01", 100))
        .containsExactly(new AggregateStore.Entry(key(user, old), 5.0));
    store.dropDaysBefore(LocalDate.of(2001, 1, 3));
  }
}
