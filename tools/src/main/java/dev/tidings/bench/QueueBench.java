package dev.tidings.bench;

import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Work-queue throughput through the {@link WorkQueue} port only, so the same code measures every
 * adapter: publishing one message per call and in batches, consuming one message per handler call
 * ({@link WorkQueue#subscribe}) and in batches ({@link WorkQueue#subscribeBatches}), and both at once,
 * publish through consume. Every publish is durable and confirmed when it returns (the port's
 * promise). Each phase uses a queue of its own and must deliver every message it published (counted
 * by the sequence number in each body), or the benchmark fails.
 */
public final class QueueBench {
  /** What to run: {@code messages} per phase, of {@code bodyBytes} each. */
  public record Options(
      int messages, int bodyBytes, int batch, int publishers, int consumers, int prefetch) {
    public Options {
      if (messages < 1) throw new IllegalArgumentException("messages must be >= 1");
      if (bodyBytes < Long.BYTES)
        throw new IllegalArgumentException("bodyBytes must be >= " + Long.BYTES);
      if (batch < 1) throw new IllegalArgumentException("batch must be >= 1");
      if (publishers < 1) throw new IllegalArgumentException("publishers must be >= 1");
      if (consumers < 1) throw new IllegalArgumentException("consumers must be >= 1");
      if (prefetch < 1) throw new IllegalArgumentException("prefetch must be >= 1");
    }
  }

  /**
   * An adapter under test. {@code open} gives a client as a node has; {@code baseline}, where the
   * adapter has one, a client configured as before a change (queue tables: a NOTIFY per publish).
   */
  public interface Backend {
    String name();

    WorkQueue open();

    default Optional<Baseline> baseline() {
      return Optional.empty();
    }

    /** Removes what the backend keeps of a queue the benchmark declared, which would outlive the run. */
    default void forget(String queue) {
      try (WorkQueue client = open()) {
        client.delete(queue);
      }
    }
  }

  /** A client configured the old way, and what that way was. */
  public record Baseline(String label, Function<Backend, WorkQueue> open) {}

  /** One measured phase; {@code perSecond} is empty when the adapter does not support it. */
  public record Phase(
      String backend, String name, long messages, double seconds, Optional<Double> perSecond) {}

  private final Options options;
  private final Function<String, Tracker> progress;
  private final PrintStream out;
  private final byte[] filler;

  private QueueBench(Options options, Function<String, Tracker> progress, PrintStream out) {
    this.options = options;
    this.progress = progress;
    this.out = out;
    this.filler = new byte[options.bodyBytes()];
    new SplittableRandom(7).nextBytes(filler);
  }

  /** Runs every phase on {@code backend}, printing each as it ends. */
  public static List<Phase> run(
      Backend backend, Options options, Function<String, Tracker> progress, PrintStream out) {
    return new QueueBench(options, progress, out).run(backend);
  }

  private List<Phase> run(Backend backend) {
    List<Phase> phases = new ArrayList<>();
    try (WorkQueue queue = backend.open()) {
      warmUp(backend, queue);
      var baseline = backend.baseline();
      if (baseline.isPresent()) {
        try (WorkQueue old = baseline.get().open().apply(backend)) {
          phases.add(
              publish(backend, old, "publish, 1 per call (" + baseline.get().label() + ")", 1));
        }
      }
      phases.add(publish(backend, queue, "publish, 1 per call", 1));
      phases.add(
          publish(backend, queue, "publishAll, " + options.batch() + " per call", options.batch()));
      phases.add(consume(backend, queue, false, false));
      phases.add(consume(backend, queue, true, false));
      phases.add(consume(backend, queue, false, true));
      phases.add(consume(backend, queue, true, true));
    }
    return phases;
  }

  /** A short round of every path first, so that the figures are not the JIT's. */
  private void warmUp(Backend backend, WorkQueue queue) {
    var small = new Options(
        Math.min(options.messages(), 2_000),
        options.bodyBytes(),
        options.batch(),
        options.publishers(),
        options.consumers(),
        options.prefetch());
    var bench =
        new QueueBench(small, name -> noTracker(), new PrintStream(PrintStream.nullOutputStream()));
    bench.publish(backend, queue, "warm-up", small.batch());
    bench.consume(backend, queue, false, true);
    bench.consume(backend, queue, true, true);
  }

  private String declare(Backend backend, WorkQueue queue) {
    String name = "bench-" + UUID.randomUUID().toString().substring(0, 8);
    queue.declare(new QueueSpec(
        name,
        QueueSpec.MAX_PRIORITY,
        QueueSpec.DEFAULT_MAX_DELIVERIES,
        QueueSpec.DEFAULT_VISIBILITY_TIMEOUT));
    return name;
  }

  private Phase publish(Backend backend, WorkQueue queue, String phase, int perCall) {
    String name = declare(backend, queue);
    try (Tracker tracker = progress.apply(backend.name() + ": " + phase)) {
      var published = new AtomicLong();
      long start = System.nanoTime();
      publishAll(queue, name, perCall, published, tracker);
      double seconds = (System.nanoTime() - start) / 1e9;
      return report(backend, phase + ", " + options.publishers() + " publishers", seconds);
    } finally {
      backend.forget(name);
    }
  }

  /** Publishes messages 0..n-1 from {@code publishers} threads, {@code perCall} per call. */
  private void publishAll(
      WorkQueue queue, String name, int perCall, AtomicLong published, Tracker tracker) {
    int n = options.messages();
    var next = new AtomicLong();
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> running = new ArrayList<>();
      for (int p = 0; p < options.publishers(); p++) {
        running.add(threads.submit(() -> {
          while (true) {
            long from = next.getAndAdd(perCall);
            if (from >= n) return null;
            int count = (int) Math.min(perCall, n - from);
            List<Message> messages = new ArrayList<>(count);
            for (int i = 0; i < count; i++) messages.add(message(from + i));
            if (count == 1) queue.publish(name, messages.getFirst());
            else queue.publishAll(name, messages);
            long done = published.addAndGet(count);
            if (done % 1_000 < count) tracker.stepTo(done);
          }
        }));
      }
      await(running);
    }
  }

  private Phase consume(
      Backend backend, WorkQueue queue, boolean batches, boolean whilePublishing) {
    String how = batches
        ? "subscribeBatches, " + options.consumers() + " consumers x " + options.batch()
        : "subscribe, " + options.consumers() + " consumers x prefetch " + options.prefetch();
    String phase = (whilePublishing ? "publish through consume, " : "consume, ") + how;
    String name = declare(backend, queue);
    try {
      var seen = new AtomicIntegerArray(options.messages());
      var consumed = new AtomicLong();
      var duplicates = new AtomicLong();
      if (!whilePublishing) publishAll(queue, name, 1_000, new AtomicLong(), noTracker());
      try (Tracker tracker = progress.apply(backend.name() + ": " + phase)) {
        long start = System.nanoTime();
        Subscription subscription;
        try {
          subscription = subscribe(queue, name, batches, delivery -> {
            int sequence = (int) ByteBuffer.wrap(delivery.body()).getLong();
            if (seen.getAndIncrement(sequence) > 0) duplicates.incrementAndGet();
            long done = consumed.incrementAndGet();
            if (done % 1_000 == 0) tracker.stepTo(done);
          });
        } catch (UnsupportedOperationException e) {
          out.printf(
              Locale.ROOT, "%-10s %-72s not supported by this adapter%n", backend.name(), phase);
          return new Phase(backend.name(), phase, 0, 0, Optional.empty());
        }
        try (subscription) {
          if (whilePublishing)
            publishAll(queue, name, options.batch(), new AtomicLong(), noTracker());
          awaitAll(seen, consumed);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (duplicates.get() > 0) {
          out.printf(Locale.ROOT, "  (%d messages delivered twice)%n", duplicates.get());
        }
        return report(backend, phase, seconds);
      }
    } finally {
      backend.forget(name);
    }
  }

  private interface Sink {
    void accept(Delivery delivery);
  }

  private Subscription subscribe(WorkQueue queue, String name, boolean batches, Sink sink) {
    if (batches) {
      return queue.subscribeBatches(name, options.consumers(), options.batch(), batch -> {
        batch.forEach(sink::accept);
        return BatchResult.ACK_ALL;
      });
    }
    return queue.subscribe(name, options.consumers(), options.prefetch(), delivery -> {
      sink.accept(delivery);
      return Disposition.ACK;
    });
  }

  /** Waits until every message was delivered; fails when deliveries stop for a minute. */
  private void awaitAll(AtomicIntegerArray seen, AtomicLong consumed) {
    long last = -1;
    long lastProgress = System.nanoTime();
    while (true) {
      long now = consumed.get();
      if (now >= options.messages() && everySeen(seen)) return;
      if (now != last) {
        last = now;
        lastProgress = System.nanoTime();
      } else if (System.nanoTime() - lastProgress > Duration.ofMinutes(1).toNanos()) {
        throw new IllegalStateException(
            "deliveries stopped at " + now + " of " + options.messages());
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  private static boolean everySeen(AtomicIntegerArray seen) {
    for (int i = 0; i < seen.length(); i++) if (seen.get(i) == 0) return false;
    return true;
  }

  private Phase report(Backend backend, String phase, double seconds) {
    double perSecond = options.messages() / seconds;
    out.printf(
        Locale.ROOT,
        "%-10s %-72s %,10.0f messages/s  (%,d in %.2f s)%n",
        backend.name(),
        phase,
        perSecond,
        options.messages(),
        seconds);
    return new Phase(backend.name(), phase, options.messages(), seconds, Optional.of(perSecond));
  }

  private Message message(long sequence) {
    byte[] body = filler.clone();
    ByteBuffer.wrap(body).putLong(sequence);
    return Message.of(body, (int) (sequence % (QueueSpec.MAX_PRIORITY + 1)));
  }

  private static Tracker noTracker() {
    return new Tracker() {
      @Override
      public void stepTo(long done) {}

      @Override
      public void close() {}
    };
  }

  private static void await(List<Future<?>> running) {
    for (Future<?> future : running) {
      try {
        future.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException runtime) throw runtime;
        throw new IllegalStateException(e.getCause());
      }
    }
  }
}
