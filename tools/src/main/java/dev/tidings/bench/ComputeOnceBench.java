package dev.tidings.bench;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.ComputeOnce.Outcome;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.CoordinationException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;

/**
 * Compute-once under the open-time slots load: many keys, a few callers per key arriving together
 * (the slots of one opened e-mail), spread over the nodes of one backend. Keys are taken
 * {@code keysInFlight} at a time; for each, {@code waitersPerKey} virtual threads call
 * {@link ComputeOnce#computeOnce} on nodes in turn, and one of them computes (sleeping
 * {@code compute}). Every call is timed; every key must be computed once and give every caller one value,
 * or the run counts it as wrong.
 */
public final class ComputeOnceBench {
  /** Long enough never to expire during a run; the value outlives it so late callers still join. */
  static final Timings TIMINGS =
      new Timings(Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofSeconds(2));

  /** What to run: {@code keys} measured after {@code warmupKeys} unmeasured. */
  public record Options(
      int keys, int waitersPerKey, int keysInFlight, Duration compute, int warmupKeys) {
    public Options {
      if (keys < 1) throw new IllegalArgumentException("keys must be >= 1, got " + keys);
      if (waitersPerKey < 1)
        throw new IllegalArgumentException("waitersPerKey must be >= 1, got " + waitersPerKey);
      if (keysInFlight < 1)
        throw new IllegalArgumentException("keysInFlight must be >= 1, got " + keysInFlight);
      if (compute.isNegative()) throw new IllegalArgumentException("compute must be >= 0");
      if (warmupKeys < 0) throw new IllegalArgumentException("warmupKeys must be >= 0");
    }
  }

  /** One backend: one {@link ComputeOnce} per simulated node. */
  public record Subject(String name, List<ComputeOnce> nodes) {
    public Subject {
      nodes = List.copyOf(nodes);
      if (nodes.isEmpty()) throw new IllegalArgumentException("a subject needs a node");
    }
  }

  /** The figures of one subject; times are of whole calls, the computing caller's included. */
  public record Run(
      String name,
      int nodes,
      long calls,
      double seconds,
      double callsPerSecond,
      double p50Millis,
      double p99Millis,
      double maxMillis,
      long computations,
      long timedOut,
      long failed,
      long wrongKeys) {}

  /** The previous Redis compute-once (BLMOVE per waiter), {@code nodes} instances under {@code prefix}. */
  public static Baseline blmoveBaseline(URI redisUrl, int nodes, String prefix) {
    List<BlmoveComputeOnce> opened = new ArrayList<>();
    try {
      for (int i = 0; i < nodes; i++) opened.add(BlmoveComputeOnce.connect(redisUrl, prefix));
    } catch (RuntimeException e) {
      opened.forEach(BlmoveComputeOnce::close);
      throw e;
    }
    return new Baseline(List.copyOf(opened));
  }

  /** The baseline's nodes; close them after the run. */
  public static final class Baseline implements AutoCloseable {
    private final List<BlmoveComputeOnce> nodes;

    private Baseline(List<BlmoveComputeOnce> nodes) {
      this.nodes = nodes;
    }

    public List<ComputeOnce> nodes() {
      return List.copyOf(nodes);
    }

    @Override
    public void close() {
      nodes.forEach(BlmoveComputeOnce::close);
    }
  }

  private ComputeOnceBench() {}

  public static Run run(
      Subject subject, Options options, BiFunction<String, Long, Tracker> progress) {
    String namespace = "bench-" + UUID.randomUUID() + "-";
    if (options.warmupKeys() > 0) {
      try (Tracker warmup = progress.apply(
          subject.name() + " warm-up", (long) options.warmupKeys() * options.waitersPerKey())) {
        measure(subject, options, options.warmupKeys(), namespace + "warmup-", warmup);
      }
    }
    try (Tracker tracker =
        progress.apply(subject.name(), (long) options.keys() * options.waitersPerKey())) {
      return measure(subject, options, options.keys(), namespace, tracker);
    }
  }

  private static Run measure(
      Subject subject, Options options, int keyCount, String namespace, Tracker tracker) {
    int waiters = options.waitersPerKey();
    int groups = Math.min(options.keysInFlight(), keyCount);
    long[] nanos = new long[keyCount * waiters];
    AtomicReferenceArray<String> firstValue = new AtomicReferenceArray<>(keyCount);
    var computations = new LongAdder();
    var timedOut = new LongAdder();
    var failed = new LongAdder();
    var wrong = new LongAdder();
    var done = new LongAdder();
    long started;
    long ended;
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<?> ticker = threads.submit(() -> {
        while (!Thread.currentThread().isInterrupted()) {
          tracker.stepTo(done.sum());
          Thread.sleep(200);
        }
        return null;
      });
      List<Future<?>> callers = new ArrayList<>(groups * waiters);
      started = System.nanoTime();
      for (int g = 0; g < groups; g++) {
        int group = g;
        for (int w = 0; w < waiters; w++) {
          int waiter = w;
          ComputeOnce node = subject.nodes().get(w % subject.nodes().size());
          callers.add(threads.submit(() -> {
            // each caller of a group walks the group's keys, so the group's callers meet on each
            // key
            for (int k = group; k < keyCount; k += groups) {
              int key = k;
              String name = namespace + key;
              long callStarted = System.nanoTime();
              try {
                Outcome outcome = node.computeOnce(name, TIMINGS, () -> {
                  computations.increment();
                  pause(options.compute());
                  return "products for " + name + " " + UUID.randomUUID();
                });
                nanos[key * waiters + waiter] = System.nanoTime() - callStarted;
                switch (outcome) {
                  case Outcome.TimedOut ignored -> timedOut.increment();
                  case Outcome.Computed computed -> agree(firstValue, key, computed.value(), wrong);
                  case Outcome.Joined joined -> agree(firstValue, key, joined.value(), wrong);
                }
              } catch (CoordinationException e) {
                nanos[key * waiters + waiter] = System.nanoTime() - callStarted;
                failed.increment();
              }
              done.increment();
            }
            return null;
          }));
        }
      }
      for (Future<?> caller : callers) caller.get();
      ended = System.nanoTime();
      ticker.cancel(true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a caller failed", e.getCause());
    }
    tracker.stepTo(done.sum());
    long extra = computations.sum() - keyCount;
    Arrays.sort(nanos);
    double seconds = (ended - started) / 1e9;
    return new Run(
        subject.name(),
        subject.nodes().size(),
        nanos.length,
        seconds,
        nanos.length / seconds,
        millis(percentile(nanos, 0.50)),
        millis(percentile(nanos, 0.99)),
        millis(nanos[nanos.length - 1]),
        computations.sum(),
        timedOut.sum(),
        failed.sum(),
        wrong.sum() + Math.max(0, extra));
  }

  /** Counts a key as wrong when two callers got different values for it. */
  private static void agree(
      AtomicReferenceArray<String> firstValue, int key, String value, LongAdder wrong) {
    String first = firstValue.compareAndExchange(key, null, value);
    if (first != null && !first.equals(value)) wrong.increment();
  }

  private static long percentile(long[] sorted, double fraction) {
    return sorted[Math.max(0, (int) Math.ceil(sorted.length * fraction) - 1)];
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }

  private static void pause(Duration duration) {
    if (duration.isZero()) return;
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
