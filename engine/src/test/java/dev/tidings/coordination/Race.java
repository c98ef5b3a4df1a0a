package dev.tidings.coordination;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/** Runs tasks on virtual threads, released together, and waits for them within a bound. */
public final class Race implements AutoCloseable {
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final CountDownLatch gate = new CountDownLatch(1);

  /** Starts {@code task} now; it runs once {@link #go} opens the gate. */
  public <T> Future<T> add(Callable<T> task) {
    return threads.submit(() -> {
      gate.await();
      return task.call();
    });
  }

  /** Starts {@code task} at once, without waiting for the gate. */
  public <T> Future<T> start(Callable<T> task) {
    return threads.submit(task);
  }

  public void go() {
    gate.countDown();
  }

  /** Opens the gate and collects every result, failing the test if any takes longer than {@code bound}. */
  public <T> List<T> all(List<Future<T>> futures, Duration bound) {
    go();
    long deadline = System.nanoTime() + bound.toNanos();
    List<T> results = new ArrayList<>();
    for (Future<T> future : futures)
      results.add(result(future, Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
    return results;
  }

  /** Runs {@code task} once per input, all released together, and returns the results in input order. */
  public static <T, R> List<R> together(List<T> inputs, Function<T, R> task, Duration bound) {
    try (var race = new Race()) {
      List<Future<R>> futures =
          inputs.stream().map(input -> race.add(() -> task.apply(input))).toList();
      return race.all(futures, bound);
    }
  }

  public static <T> T result(Future<T> future, Duration bound) {
    try {
      return future.get(bound.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      return fail("a task did not finish within " + bound);
    } catch (ExecutionException e) {
      return fail("a task failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fail("interrupted");
    }
  }

  @Override
  public void close() {
    gate.countDown();
    threads.shutdownNow();
  }
}
