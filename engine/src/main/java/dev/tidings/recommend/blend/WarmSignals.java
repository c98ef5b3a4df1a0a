package dev.tidings.recommend.blend;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import dev.tidings.events.Broadcast;
import dev.tidings.events.activity.SignalsChanged;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every user's signals (their aggregates and follows) held in this node's memory, so a first open or
 * an API call reads no table on the common path. The database stays the truth: the memory is loaded
 * from it at start, and every statement that changes a user's signals tells {@link SignalsChanged}
 * naming that user (a trigger on the tables, whoever writes them), which marks them stale until the
 * next request reads them again.
 *
 * <p>Most users have no signals at all. While the memory is <em>complete</em> (loaded in full since
 * the feed last connected, and nothing evicted since), a user it does not hold has none, and is
 * answered without a read. It is bounded by the number of aggregates it holds; past the bound it
 * evicts the least used, is no longer complete, and a user it does not hold is read from the database
 * (and kept).
 */
final class WarmSignals implements Broadcast.Listener<SignalsChanged>, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WarmSignals.class);

  /** What the memory holds for a user. */
  private sealed interface Held {}

  /**
   * A user's signals as the database had them (day periods from {@code from} on), kept as the
   * algorithms read them: per aggregate its kind, target, period and value; aggregates of other
   * layouts are not kept. Targets and periods are shared between users where equal.
   */
  private record Known(
      UserSignals.Kind[] kinds,
      String[] targets,
      KeyPart.Bucket[] buckets,
      double[] values,
      Follows follows,
      LocalDate from)
      implements Held {
    int weight() {
      return 1 + kinds.length + follows.brands().size() + follows.categories().size();
    }
  }

  /** Changed since read; each mark is its own object, so a read replaces only the mark it saw. */
  private static final class Stale implements Held {}

  /** What a request sees: signals at hand, or a mark to hand back with what it read. */
  sealed interface Lookup {
    record Hit(UserSignals signals) implements Lookup {}

    /** Not at hand: read the database, then {@link #remember} with this. */
    final class Miss implements Lookup {
      private final @Nullable Held seen;
      private final long generation;

      private Miss(@Nullable Held seen, long generation) {
        this.seen = seen;
        this.generation = generation;
      }
    }
  }

  private final Cache<String, Held> users;
  /** Product ids, brands and periods many users share, held once. */
  private final Interner shared = new Interner();

  private final AggregateStore aggregates;
  private final Follows.Loader follows;
  private final Supplier<LocalDate> firstDay;
  private final ExecutorService loads = Executors.newSingleThreadExecutor(
      Thread.ofVirtual().name("recommend-warm-load").factory());
  private final Object resetLock = new Object();
  private final AtomicLong generation = new AtomicLong();
  private final long maxEntries;
  private volatile boolean complete;
  /** The first day of daily aggregates the last full load read. */
  private volatile LocalDate loadedFrom = LocalDate.MAX;

  private volatile long evictedAt = -1;
  private final Counter fromMemory;
  private final Counter emptyFromMemory;
  private final Counter fromDatabase;
  private final Counter marked;
  private final MeterRegistry metrics;

  /**
   * @param maxEntries aggregates and follows held at most, over all users
   * @param firstDay the first day of daily aggregates the algorithms read today
   */
  WarmSignals(
      AggregateStore aggregates,
      Follows.Loader follows,
      Supplier<LocalDate> firstDay,
      long maxEntries,
      MeterRegistry metrics) {
    this.aggregates = aggregates;
    this.follows = follows;
    this.firstDay = firstDay;
    this.maxEntries = maxEntries;
    this.metrics = metrics;
    this.users = Caffeine.newBuilder()
        .maximumWeight(maxEntries)
        .<String, Held>weigher((user, held) -> held instanceof Known known ? known.weight() : 1)
        .removalListener((@Nullable String user, @Nullable Held held, RemovalCause cause) -> {
          if (cause.wasEvicted()) {
            complete = false;
            evictedAt = generation.get();
          }
        })
        .executor(Runnable::run)
        .build();
    String name = "tidings_recommend_signals_total";
    String help = "Users' signals a recommendation read, by where from";
    this.fromMemory =
        Counter.builder(name).description(help).tag("source", "memory").register(metrics);
    this.emptyFromMemory =
        Counter.builder(name).description(help).tag("source", "memory_none").register(metrics);
    this.fromDatabase =
        Counter.builder(name).description(help).tag("source", "database").register(metrics);
    this.marked = Counter.builder("tidings_recommend_signals_changed_total")
        .description("Users whose signals the change feed said changed")
        .register(metrics);
    Gauge.builder("tidings_recommend_warm_users", users, Cache::estimatedSize)
        .description("Users whose signals this node holds in memory")
        .register(metrics);
    Gauge.builder("tidings_recommend_warm_complete", this, warm -> warm.complete ? 1 : 0)
        .description("1 while this node holds every user's signals (a user it lacks has none)")
        .register(metrics);
  }

  /** The user's signals if memory can answer for the days asked, else a miss to read them. */
  Lookup lookup(String userId, LocalDate today, LocalDate from) {
    long current = generation.get();
    Held held = users.getIfPresent(userId);
    if (held instanceof Known known && !from.isBefore(known.from())) {
      fromMemory.increment();
      return new Lookup.Hit(signals(userId, known, today, from));
    }
    if (held == null && complete && !from.isBefore(loadedFrom)) {
      emptyFromMemory.increment();
      return new Lookup.Hit(UserSignals.none(userId, today));
    }
    fromDatabase.increment();
    return new Lookup.Miss(held, current);
  }

  /**
   * Keeps what a miss read, unless the user changed meanwhile (then the next request reads again).
   * A user with more aggregates than one read takes is not kept: the read cut them short.
   */
  void remember(
      String userId,
      Lookup.Miss miss,
      List<AggregateStore.Entry> entries,
      Follows followed,
      LocalDate from) {
    if (entries.size() >= SignalReader.MAX_USER_AGGREGATES) return;
    Known known = known(entries, followed, from);
    if (miss.seen == null) users.asMap().putIfAbsent(userId, known);
    else users.asMap().replace(userId, miss.seen, known);
    // the feed reconnected meanwhile: what was read may predate a change nobody heard of
    if (generation.get() != miss.generation) users.asMap().remove(userId, known);
  }

  private Known known(List<AggregateStore.Entry> entries, Follows followed, LocalDate from) {
    int n = 0;
    UserSignals.@Nullable Kind[] kinds = new UserSignals.Kind[entries.size()];
    for (int i = 0; i < kinds.length; i++)
      kinds[i] = UserSignals.kind(entries.get(i).key());
    for (UserSignals.Kind kind : kinds) if (kind != null) n++;
    var known = new Known(
        new UserSignals.Kind[n],
        new String[n],
        new KeyPart.Bucket[n],
        new double[n],
        followed,
        from);
    int at = 0;
    for (int i = 0; i < kinds.length; i++) {
      UserSignals.Kind kind = kinds[i];
      if (kind == null) continue;
      AggregateKey key = entries.get(i).key();
      known.kinds()[at] = kind;
      known.targets()[at] = shared.intern(UserSignals.target(key));
      known.buckets()[at] = shared.intern(key.bucket().orElseThrow());
      known.values()[at] = entries.get(i).value();
      at++;
    }
    return known;
  }

  private static UserSignals signals(String userId, Known known, LocalDate today, LocalDate from) {
    var signals = UserSignals.empty(userId, today, known.follows());
    for (int i = 0; i < known.kinds().length; i++) {
      if (known.buckets()[i] instanceof KeyPart.Day day && day.day().isBefore(from)) continue;
      signals.add(
          known.kinds()[i], known.targets()[i], known.buckets()[i], known.values()[i]);
    }
    return signals;
  }

  /** The feed (re)connected: changes may have been missed, so everything is read again. */
  @Override
  public void missed() {
    long current;
    synchronized (resetLock) {
      current = generation.incrementAndGet();
      complete = false;
      users.invalidateAll();
    }
    loads.execute(() -> load(current));
  }

  @Override
  public void heard(SignalsChanged event) {
    switch (event) {
      case SignalsChanged.Everyone everyone -> missed();
      case SignalsChanged.Of of -> {
        users.put(of.subscriberId(), new Stale());
        marked.increment();
      }
    }
  }

  /** Reads every user's signals; complete if nothing was missed or evicted meanwhile. */
  private void load(long started) {
    long start = System.nanoTime();
    LocalDate from = firstDay.get();
    Map<String, List<AggregateStore.Entry>> entries = new HashMap<>();
    Map<String, FollowSets> followed = new HashMap<>();
    long[] count = {0};
    try {
      aggregates.forEachUnder(Keys.userPrefix(), from, entry -> {
        if (++count[0] > maxEntries) throw new TooMany();
        if (entry.key().parts().get(1) instanceof KeyPart.Text user)
          entries.computeIfAbsent(user.value(), u -> new ArrayList<>()).add(entry);
      });
      follows.forEach((user, brand, category) -> {
        if (++count[0] > maxEntries) throw new TooMany();
        FollowSets sets =
            followed.computeIfAbsent(user, u -> new FollowSets(new HashSet<>(), new HashSet<>()));
        if (brand != null) sets.brands().add(brand);
        if (category != null) sets.categories().add(category);
      });
    } catch (TooMany e) {
      loaded("too_many");
      LOG.info(
          "recommendations: more signals than the {} this node holds; users beyond are read on request",
          maxEntries);
      return;
    } catch (RuntimeException e) {
      loaded("failed");
      LOG.warn("recommendations: loading users' signals failed; read on request", e);
      return;
    }
    synchronized (resetLock) {
      if (generation.get() != started) {
        loaded("superseded"); // the feed reconnected: a newer load follows
        return;
      }
      Set<String> everyone = new HashSet<>(entries.keySet());
      everyone.addAll(followed.keySet());
      for (String user : everyone) {
        List<AggregateStore.Entry> own = entries.getOrDefault(user, List.of());
        if (own.size() >= SignalReader.MAX_USER_AGGREGATES) {
          users.asMap().putIfAbsent(user, new Stale());
          continue;
        }
        FollowSets sets = followed.get(user);
        Follows follows =
            sets == null ? Follows.NONE : new Follows(sets.brands(), sets.categories());
        users.asMap().putIfAbsent(user, known(own, follows, from));
      }
      users.cleanUp();
      loadedFrom = from;
      complete = evictedAt != started;
    }
    loaded(complete ? "complete" : "evicted");
    LOG.info(
        "recommendations: {} users' signals in memory ({} entries) in {} ms{}",
        users.estimatedSize(),
        count[0],
        Duration.ofNanos(System.nanoTime() - start).toMillis(),
        complete ? "" : "; not all of them (some were evicted)");
  }

  private void loaded(String result) {
    metrics.counter("tidings_recommend_warm_loads_total", "result", result).increment();
  }

  /** Whether a user this node lacks has no signals (for tests and the gauge). */
  boolean complete() {
    return complete;
  }

  /** Equal values held once: weakly, so what no user holds any more goes. */
  private static final class Interner {
    private final com.github.benmanes.caffeine.cache.Interner<Object> values =
        com.github.benmanes.caffeine.cache.Interner.newWeakInterner();

    @SuppressWarnings("unchecked")
    <T> T intern(T value) {
      return (T) values.intern(value);
    }
  }

  private record FollowSets(Set<String> brands, Set<String> categories) {}

  private static final class TooMany extends RuntimeException {
    TooMany() {
      super(null, null, false, false);
    }
  }

  @Override
  public void close() {
    loads.shutdownNow();
  }
}
