package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.AggregateStore;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one user's signals on the request path: the prefix read of {@code s@user:s@<id>:} and the
 * follows query, side by side, each bounded by the request's deadline. What is not back in time (or
 * fails) counts as nothing known, so the answer is late never.
 */
final class SignalReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SignalReader.class);

  /** Aggregates of one user read at most: a year of daily views of many items is still far less. */
  static final int MAX_USER_AGGREGATES = 5_000;

  /** Below this much time left, the reads are not worth starting. */
  static final Duration MIN_BUDGET = Duration.ofMillis(1);

  private final AggregateReader aggregates;
  private final Follows.Reader follows;
  private final InstantSource clock;
  private final ExecutorService reads = Executors.newVirtualThreadPerTaskExecutor();
  private final LongAdder unread = new LongAdder();
  private final IntSupplier recentDays;
  private final @Nullable WarmSignals warm;

  /**
   * {@code recentDays}: how many days of daily aggregates (recent views) the algorithms use; {@code
   * warm}: the users' signals this node holds in memory, if it does.
   */
  SignalReader(
      AggregateReader aggregates,
      Follows.Reader follows,
      InstantSource clock,
      IntSupplier recentDays,
      @Nullable WarmSignals warm) {
    this.aggregates = aggregates;
    this.follows = follows;
    this.clock = clock;
    this.recentDays = recentDays;
    this.warm = warm;
  }

  /** The first day of daily aggregates the algorithms read today. */
  LocalDate firstDay(LocalDate today) {
    return today.minusDays(recentDays.getAsInt());
  }

  UserSignals read(String userId, Instant deadline) {
    Instant now = clock.instant();
    LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
    Duration left = Duration.between(now, deadline);
    if (left.compareTo(MIN_BUDGET) < 0) {
      unread.increment();
      return UserSignals.none(userId, today);
    }
    LocalDate from = firstDay(today);
    WarmSignals.Lookup lookup = warm == null ? null : warm.lookup(userId, today, from);
    if (lookup instanceof WarmSignals.Lookup.Hit hit) return hit.signals();
    Future<List<AggregateStore.Entry>> read =
        reads.submit(() -> aggregates.under(Keys.user(userId), from, MAX_USER_AGGREGATES));
    Future<Follows> followed = reads.submit(() -> follows.of(userId));
    List<AggregateStore.Entry> entries = await(read, deadline, null);
    if (entries == null) {
      followed.cancel(false);
      unread.increment();
      return UserSignals.none(userId, today);
    }
    Follows follows = await(followed, deadline, null);
    if (follows == null) return UserSignals.of(userId, entries, Follows.NONE, today);
    if (lookup instanceof WarmSignals.Lookup.Miss miss)
      Objects.requireNonNull(warm).remember(userId, miss, entries, follows, from);
    return UserSignals.of(userId, entries, follows, today);
  }

  /** The read's result, or {@code otherwise} when it fails or is not back by the deadline. */
  private <T> @Nullable T await(Future<T> read, Instant deadline, @Nullable T otherwise) {
    long nanos = Math.max(0, Duration.between(clock.instant(), deadline).toNanos());
    try {
      return read.get(nanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      // no interrupt: interrupting a thread in JDBC I/O closes its connection's socket
      read.cancel(false);
      return otherwise;
    } catch (ExecutionException e) {
      LOG.debug("recommendations: reading a user's signals failed", e.getCause());
      return otherwise;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      read.cancel(false);
      return otherwise;
    }
  }

  /** Requests answered without the user's aggregates (deadline too near, or the read failed). */
  long unread() {
    return unread.sum();
  }

  @Override
  public void close() {
    reads.shutdown();
  }
}
