package dev.tidings.opentime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * A rough measure of the slot near cache under contention, not a benchmark harness: threads read an
 * email's list and store it on a miss (the pattern of {@code SlotChooser}), against the synchronized
 * access-ordered map it used before and the Caffeine cache it uses now. Keys are skewed the way opens
 * are (most requests for recent emails, so most find their list). Run with {@code java -cp ...
 * NearCacheContention [threads] [seconds] [rounds] [emails]}: with fewer emails than the cache holds,
 * every lookup after the first of an email is a hit. The figures depend on the machine and on what else
 * runs on it.
 */
final class NearCacheContention {
  private static final int CAPACITY = 50_000;

  private interface Near {
    Object get(String key);

    Object putIfAbsent(String key, Object value);
  }

  public static void main(String[] args) throws InterruptedException {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    int emails = args.length > 3 ? Integer.parseInt(args[3]) : 100_000;
    String[] keys = new String[emails];
    for (int i = 0; i < emails; i++) keys[i] = "7.1.subscriber-" + i;
    for (int round = 0; round < rounds; round++) {
      report("synchronized LinkedHashMap", run(synchronizedMap(), keys, threads, seconds));
      report("Caffeine", run(caffeine(), keys, threads, seconds));
    }
  }

  private static Near synchronizedMap() {
    var map = new LinkedHashMap<String, Object>(1_024, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Object> eldest) {
        return size() > CAPACITY;
      }
    };
    return new Near() {
      @Override
      public Object get(String key) {
        synchronized (map) {
          return map.get(key);
        }
      }

      @Override
      public Object putIfAbsent(String key, Object value) {
        synchronized (map) {
          return map.putIfAbsent(key, value);
        }
      }
    };
  }

  private static Near caffeine() {
    Cache<String, Object> cache =
        Caffeine.newBuilder().maximumSize(CAPACITY).recordStats().build();
    return new Near() {
      @Override
      public Object get(String key) {
        return cache.getIfPresent(key);
      }

      @Override
      public Object putIfAbsent(String key, Object value) {
        return cache.asMap().putIfAbsent(key, value);
      }
    };
  }

  private record Result(long operations, long misses, int threads, int seconds) {}

  private static Result run(Near near, String[] keys, int threads, int seconds)
      throws InterruptedException {
    var stop = new AtomicBoolean();
    var operations = new LongAdder();
    var misses = new LongAdder();
    var start = new CountDownLatch(1);
    var workers = new Thread[threads];
    Object list = new Object();
    for (int t = 0; t < threads; t++) {
      workers[t] = Thread.ofPlatform().start(() -> {
        var random = ThreadLocalRandom.current();
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        long done = 0;
        long missed = 0;
        while (!stop.get()) {
          // the cube skews towards low indexes: a few hot emails, a long tail
          double u = random.nextDouble();
          String key = keys[(int) (u * u * u * keys.length)];
          if (near.get(key) == null) {
            near.putIfAbsent(key, list);
            missed++;
          }
          done++;
        }
        operations.add(done);
        misses.add(missed);
      });
    }
    start.countDown();
    Thread.sleep(seconds * 1_000L);
    stop.set(true);
    for (Thread worker : workers) worker.join();
    return new Result(operations.sum(), misses.sum(), threads, seconds);
  }

  private static void report(String name, Result result) {
    System.out.printf(
        "%-28s %2d threads: %,12.0f lookups/s, %.1f%% misses%n",
        name,
        result.threads(),
        result.operations() / (double) result.seconds(),
        100.0 * result.misses() / result.operations());
  }
}
