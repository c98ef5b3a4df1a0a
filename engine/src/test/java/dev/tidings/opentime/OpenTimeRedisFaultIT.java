package dev.tidings.opentime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.redis.RedisCoordination;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommendations.Recommended;
import dev.tidings.recommend.Recommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.PrivateRedis;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Open-time slots on a real Redis that fails: in-process nodes (each a {@link SlotChooser} with its own
 * {@link RedisCoordination}) share a private redis-server and a real PostgreSQL schema, and the test
 * stalls, kills and restarts what a production cluster would lose.
 */
class OpenTimeRedisFaultIT {
  private static final List<String> CATALOG =
      IntStream.range(0, 200).mapToObj(i -> String.format("p%03d", i)).toList();
  private static final int K = 5;
  private static final Duration LOCK = Duration.ofMillis(300);

  private static PrivateRedis redis;
  private static Database database;

  private final InstantSource clock = InstantSource.system();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final TestRecommender recommender = new TestRecommender();
  private String prefix = "";
  private long run;

  @BeforeAll
  static void servers() {
    RealServers.requireRedis();
    RealServers.requirePostgres();
    redis = PrivateRedis.start();
    database = TestDatabases.real();
  }

  @AfterAll
  static void stopServers() {
    if (database != null) database.close();
    if (redis != null) redis.close();
  }

  @BeforeEach
  void freshPrefix() {
    prefix = "otf-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    run = System.nanoTime();
  }

  @AfterEach
  void closeNodes() {
    recommender.releaseAll();
    Collections.reverse(opened);
    for (AutoCloseable closeable : opened) {
      try {
        closeable.close();
      } catch (Exception ignored) {
        // closing what a test already broke
      }
    }
  }

  /** One node: its own coordinator (connection) to the private Redis, its own metrics. */
  private final class Node {
    final RedisCoordination coordination;
    final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    final SlotChooser chooser;

    Node(Timings timings, Duration commandTimeout) {
      coordination = RedisCoordination.connect(
          redis.uri(),
          new RedisCoordination.Options(prefix, commandTimeout),
          new SimpleMeterRegistry());
      opened.add(coordination);
      chooser = new SlotChooser(
          coordination.computeOnce(),
          recommender,
          database.jdbi(),
          clock,
          metrics,
          new SlotChooser.Options(timings, 1_000, Duration.ofMillis(800)));
      opened.add(chooser);
    }

    double fallbacks() {
      return metrics.counter("tidings_opentime_fallbacks").count();
    }

    double computed() {
      return metrics.counter("tidings_opentime_computed").count();
    }
  }

  private Node node(Duration maxWait) {
    return new Node(new Timings(LOCK, Duration.ofMinutes(2), maxWait), Duration.ofMillis(500));
  }

  private MessageToken email(String subscriber) {
    return new MessageToken(
        new MessageId(7, run, subscriber), Instant.parse("2026-11-23T10:00:00Z"), K);
  }

  @Test
  void a_winner_that_dies_holding_the_lock_is_taken_over_after_the_lock_ttl() throws Exception {
    Node dying = node(Duration.ofSeconds(3));
    Node a = node(Duration.ofSeconds(3));
    Node b = node(Duration.ofSeconds(3));
    MessageToken token = email("ada");
    recommender.blockNextCall();

    try (var pool = Executors.newVirtualThreadPerTaskExecutor();
        var unblock = recommender.unblockOnClose()) {
      long started = System.nanoTime(); // before the dying node takes the lock
      Future<ChosenSlots> stuck = pool.submit(() -> dying.chooser.choose(token));
      assertThat(recommender.blocked.await(5, TimeUnit.SECONDS)).isTrue();
      dying.coordination.close(); // the node is gone mid-compute: its lock is never released
      List<Future<ChosenSlots>> others = new ArrayList<>();
      for (int i = 0; i < 2 * K; i++) {
        Node node = i % 2 == 0 ? a : b;
        others.add(pool.submit(() -> node.chooser.choose(token)));
      }
      List<ChosenSlots> lists = new ArrayList<>();
      for (Future<ChosenSlots> other : others) lists.add(other.get(10, TimeUnit.SECONDS));
      long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertThat(lists).allSatisfy(list -> {
        assertThat(list.productIds()).hasSize(K).doesNotHaveDuplicates();
        assertThat(list.productIds()).isEqualTo(lists.getFirst().productIds());
        assertThat(list.how()).isIn(ChosenSlots.How.COMPUTED, ChosenSlots.How.JOINED);
      });
      assertThat(a.computed() + b.computed()).isEqualTo(1.0);
      assertThat(a.fallbacks() + b.fallbacks()).isZero();
      assertThat(waitedMs)
          .as("taken over after the lock expired")
          .isGreaterThanOrEqualTo(LOCK.toMillis());
      assertThat(recommender.calls).hasValue(2);

      a.chooser.flush();
      b.chooser.flush();
      recommender.releaseAll();
      // the dead node's caller, whose coordinator is closed, still gets the email's kept list
      ChosenSlots late = stuck.get(10, TimeUnit.SECONDS);
      assertThat(late.productIds()).isEqualTo(lists.getFirst().productIds());
    }
    assertEveryKeyHasATtl();
  }

  @Test
  void a_winner_stalled_past_the_lock_ttl_has_its_publish_refused_and_serves_the_newer_list()
      throws Exception {
    Node stalled = node(Duration.ofSeconds(3));
    Node other = node(Duration.ofSeconds(3));
    MessageToken token = email("bob");
    recommender.blockNextCall();

    try (var pool = Executors.newVirtualThreadPerTaskExecutor();
        var unblock = recommender.unblockOnClose()) {
      Future<ChosenSlots> slow = pool.submit(() -> stalled.chooser.choose(token));
      assertThat(recommender.blocked.await(5, TimeUnit.SECONDS)).isTrue();
      ChosenSlots newer = other.chooser.choose(token); // waits out the stalled winner's lock
      other.chooser.flush();
      recommender.releaseAll(); // the stalled winner finishes with a list of its own, and publishes

      ChosenSlots stale = slow.get(10, TimeUnit.SECONDS);
      stalled.chooser.flush();

      assertThat(recommender.calls)
          .hasValue(2); // both computed; the lists differ (see recommender)
      assertThat(recommender.lists.get(0)).isNotEqualTo(recommender.lists.get(1));
      assertThat(newer.how()).isEqualTo(ChosenSlots.How.COMPUTED);
      assertThat(newer.productIds()).hasSize(K).doesNotHaveDuplicates();
      assertThat(stale.productIds()).isEqualTo(newer.productIds());
      assertThat(stale.how()).isEqualTo(ChosenSlots.How.JOINED);
      assertThat(stalled.computed()).isZero();
      assertThat(stalled.fallbacks() + other.fallbacks()).isZero();
      // what a reader sees afterwards, on any node: one list, the kept one
      Node third = node(Duration.ofSeconds(3));
      for (Node node : List.of(stalled, other, third)) {
        assertThat(node.chooser.choose(token).productIds()).isEqualTo(newer.productIds());
        assertThat(node.chooser.kept(token).orElseThrow().productIds())
            .isEqualTo(newer.productIds());
      }
      assertThat(recommender.calls).hasValue(2);
    }
    assertEveryKeyHasATtl();
  }

  @Test
  void
      redis_killed_during_a_burst_falls_back_without_errors_and_coordination_resumes_after_restart()
          throws Exception {
    recommender.deterministic =
        true; // the same email gets the same list on every node, as in production
    Node a = new Node(
        new Timings(LOCK, Duration.ofMinutes(2), Duration.ofMillis(500)), Duration.ofMillis(300));
    Node b = new Node(
        new Timings(LOCK, Duration.ofMinutes(2), Duration.ofMillis(500)), Duration.ofMillis(300));
    List<MessageToken> before = emails("before", 30);
    List<MessageToken> during = emails("during", 30);

    Map<MessageToken, List<ChosenSlots>> served = new ConcurrentHashMap<>();
    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> burst = new ArrayList<>();
      burst.addAll(fire(pool, before, a, b, served, errors));
      // Redis dies while those are in flight; the rest of the burst arrives during the outage
      Thread.sleep(20);
      redis.kill();
      burst.addAll(fire(pool, during, a, b, served, errors));
      for (Future<?> request : burst) request.get(30, TimeUnit.SECONDS);
    }

    assertThat(errors).isEmpty();
    double fallbacks = a.fallbacks() + b.fallbacks();
    assertThat(fallbacks).isGreaterThan(0);
    assertDistinctListPerEmail(served, before);
    assertDistinctListPerEmail(served, during);

    redis.restart();
    awaitCoordination(a);
    awaitCoordination(b);
    double fallbacksAfterRestart = a.fallbacks() + b.fallbacks();
    double computedAfterRestart = a.computed() + b.computed();
    List<MessageToken> after = emails("after", 30);
    served.clear();
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (Future<?> request : fire(pool, after, a, b, served, errors))
        request.get(30, TimeUnit.SECONDS);
    }

    assertThat(errors).isEmpty();
    assertThat(a.fallbacks() + b.fallbacks()).isEqualTo(fallbacksAfterRestart);
    assertThat(a.computed() + b.computed()).isEqualTo(computedAfterRestart + after.size());
    assertDistinctListPerEmail(served, after);
    for (MessageToken token : after) {
      assertThat(served.get(token))
          .allSatisfy(list -> assertThat(list.how())
              .isIn(ChosenSlots.How.COMPUTED, ChosenSlots.How.JOINED, ChosenSlots.How.NEAR_CACHE));
    }
    assertEveryKeyHasATtl();
  }

  private List<MessageToken> emails(String batch, int count) {
    return IntStream.range(0, count).mapToObj(i -> email(batch + "-" + i)).toList();
  }

  /** Every slot request of every email, at once, in random order, spread over the nodes. */
  private static List<Future<?>> fire(
      ExecutorService pool,
      List<MessageToken> emails,
      Node a,
      Node b,
      Map<MessageToken, List<ChosenSlots>> served,
      List<Throwable> errors) {
    List<Runnable> requests = new ArrayList<>();
    for (MessageToken token : emails) {
      for (int slot = 0; slot < K; slot++) {
        Node node = (slot + token.message().subscriberId().length()) % 2 == 0 ? a : b;
        requests.add(() -> {
          try {
            ChosenSlots list = node.chooser.choose(token);
            served
                .computeIfAbsent(token, t -> Collections.synchronizedList(new ArrayList<>()))
                .add(list);
          } catch (Throwable e) {
            errors.add(e);
          }
        });
      }
    }
    Collections.shuffle(requests);
    List<Future<?>> futures = new ArrayList<>();
    for (Runnable request : requests) futures.add(pool.submit(request));
    return futures;
  }

  private static void assertDistinctListPerEmail(
      Map<MessageToken, List<ChosenSlots>> served, List<MessageToken> emails) {
    for (MessageToken token : emails) {
      List<ChosenSlots> lists = served.get(token);
      assertThat(lists).as("slots served for %s", token.message()).hasSize(K);
      assertThat(lists).allSatisfy(list -> {
        assertThat(list.productIds()).hasSize(K).doesNotHaveDuplicates();
        assertThat(list.productIds()).isEqualTo(lists.getFirst().productIds());
      });
    }
  }

  /** Lettuce reconnects by itself; probes with throwaway emails until one is computed under the lock. */
  private void awaitCoordination(Node node) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    int probe = 0;
    while (true) {
      ChosenSlots list = node.chooser.choose(email("probe-" + node.hashCode() + "-" + probe++));
      if (list.how() == ChosenSlots.How.COMPUTED) return;
      assertThat(System.nanoTime()).as("coordination back after restart").isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  /** No key of this test's prefix lives for ever. */
  private void assertEveryKeyHasATtl() {
    RedisClient client = RedisClient.create(redis.uri().toString());
    try (var connection = client.connect()) {
      var commands = connection.sync();
      Map<String, Long> withoutTtl = new HashMap<>();
      int keys = 0;
      ScanCursor cursor = ScanCursor.INITIAL;
      do {
        var page = commands.scan(cursor, ScanArgs.Builder.matches(prefix + "*").limit(500));
        for (String key : page.getKeys()) {
          keys++;
          long pttl = commands.pttl(key);
          if (pttl == -1) withoutTtl.put(key, pttl);
        }
        cursor = page;
      } while (!cursor.isFinished());
      assertThat(keys).as("keys of prefix %s", prefix).isPositive();
      assertThat(withoutTtl).as("keys without a TTL").isEmpty();
    } finally {
      client.shutdown();
    }
  }

  /**
   * Recommends K products from a fixed catalogue, counting calls. By default each call starts further
   * along the catalogue, so two computations of one email give different lists; {@code deterministic}
   * makes the list depend on the subscriber only. Can be told to block its next call.
   */
  private static final class TestRecommender implements Recommender {
    final AtomicInteger calls = new AtomicInteger();
    final List<List<String>> lists = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch blocked = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicLong blockNext = new AtomicLong();
    volatile boolean deterministic;

    void blockNextCall() {
      blockNext.set(1);
    }

    void releaseAll() {
      release.countDown();
    }

    /** Closed before the executor, so a failed assertion never leaves its close waiting on a blocked call. */
    AutoCloseable unblockOnClose() {
      return this::releaseAll;
    }

    @Override
    public Recommendations recommend(RecommendationRequest request) {
      int call = calls.getAndIncrement();
      if (blockNext.compareAndSet(1, 0)) {
        blocked.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      int start = deterministic
          ? Math.floorMod(request.subscriberId().hashCode(), CATALOG.size())
          : call * request.k();
      List<String> ids = new ArrayList<>();
      for (int i = 0; ids.size() < request.k() && i < CATALOG.size(); i++) {
        String id = CATALOG.get((start + i) % CATALOG.size());
        if (!request.exclude().contains(id)) ids.add(id);
      }
      lists.add(ids);
      return new Recommendations(
          ids.stream().map(id -> new Recommended(id, "test", 1.0)).toList());
    }
  }
}
