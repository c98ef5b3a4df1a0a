package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.ComputeOnce.Timings;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.redis.RedisCoordination;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.opentime.ChosenSlots;
import dev.tidings.opentime.SlotChooser;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommendations.Recommended;
import dev.tidings.recommend.Recommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.RedisClusterServers;
import dev.tidings.testing.TestDatabases;
import io.lettuce.core.cluster.SlotHash;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Scenario 1: a Redis primary killed (SIGKILL) during an open burst, and its replica promoted. Three
 * in-process nodes, each a {@link SlotChooser} on its own {@link RedisCoordination} to a six-process
 * Redis Cluster, share a real PostgreSQL schema; waves of first opens and re-opens of many emails hit
 * random nodes, and the primary serving a third of the emails' keys dies mid-burst while the waves go
 * on.
 *
 * <p>The oracle compares what every open answered. No email may show two different lists, no list may
 * repeat a product, every email's kept list must read back and be the list its opens showed, and no
 * email's list may be computed under the lock twice: the recommender here answers the same email the
 * same way (so the nodes' fallbacks agree, as in production), so a lock granted twice would not show as
 * two lists here, but would with a recommender whose answer moved in between; it is counted as
 * duplicated all the same.
 */
class RedisFailoverFaultIT {
  private static final List<String> CATALOG = IntStream.range(0, 300)
      .mapToObj(i -> String.format(Locale.ROOT, "p%03d", i))
      .toList();
  private static final int K = 4;
  private static final int EMAILS = 180;
  private static final int WAVES = 30;
  private static final Duration WAVE_GAP = Duration.ofMillis(200);
  private static final int KILL_AT_WAVE = 8;
  /** Each email's opens: two at once in its wave (first opens), then re-opens this many waves later. */
  private static final int[] REOPENS = {4, 12};

  private static final Timings TIMINGS =
      new Timings(Duration.ofSeconds(1), Duration.ofMinutes(2), Duration.ofSeconds(1));
  private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

  private final List<AutoCloseable> opened = new ArrayList<>();
  private final String prefix = "fault1-" + UUID.randomUUID().toString().substring(0, 8) + ":";
  private final long run = System.nanoTime();

  @AfterEach
  void closeNodes() {
    Collections.reverse(opened);
    for (AutoCloseable closeable : opened) {
      try {
        closeable.close();
      } catch (Exception ignored) {
        // closing what the fault broke
      }
    }
  }

  /** One node: its own coordinator (connections) to the cluster, its own metrics. */
  private final class Node {
    final RedisCoordination coordination;
    final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    final SlotChooser chooser;

    Node(RedisClusterServers cluster, Database database, Recommender recommender) {
      coordination = RedisCoordination.connect(
          cluster.uri(), new RedisCoordination.Options(prefix, COMMAND_TIMEOUT), metrics);
      opened.add(coordination);
      chooser = new SlotChooser(
          coordination.computeOnce(),
          recommender,
          database.jdbi(),
          InstantSource.system(),
          metrics,
          new SlotChooser.Options(TIMINGS, 10_000, Duration.ofMillis(800)));
      opened.add(chooser);
    }

    double counter(String name) {
      var counter = metrics.find(name).counter();
      return counter == null ? 0 : counter.count();
    }
  }

  /** What one open answered. */
  private record Answer(MessageToken email, ChosenSlots list) {}

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void a_primary_killed_during_an_open_burst_shows_every_email_one_list() throws Exception {
    RedisClusterServers cluster = RedisClusterServers.get();
    Database database = TestDatabases.real();
    opened.add(database);
    var recommender = new SameAnswerRecommender();
    List<Node> nodes = List.of(
        new Node(cluster, database, recommender),
        new Node(cluster, database, recommender),
        new Node(cluster, database, recommender));

    List<MessageToken> emails = IntStream.range(0, EMAILS)
        .mapToObj(i -> new MessageToken(
            new MessageId(11, run, "sub-" + i), Instant.parse("2026-11-27T06:00:00Z"), K))
        .toList();
    // the primary serving the first email's slot list dies: about a third of the emails live there
    int victim = cluster.primaryOf(key(emails.getFirst()));
    Set<Integer> victimSlots = new HashSet<>();
    for (int[] range : cluster.primariesWithSlots().get(victim))
      for (int slot = range[0]; slot <= range[1]; slot++) victimSlots.add(slot);
    long onVictim = emails.stream()
        .filter(e -> victimSlots.contains(SlotHash.getSlot(key(e))))
        .count();

    List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    var random = new Random(run);
    long killedAt = 0;
    Duration recovery;
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> opens = new ArrayList<>();
      Future<Duration> recovered = null;
      int perWave = EMAILS / (WAVES - REOPENS[REOPENS.length - 1]);
      for (int wave = 0; wave < WAVES; wave++) {
        if (wave == KILL_AT_WAVE) {
          cluster.kill(victim);
          killedAt = System.nanoTime();
          long since = killedAt;
          recovered = pool.submit(() -> firstSuccessOn(nodes.getFirst(), victimSlots, since));
        }
        List<MessageToken> due = new ArrayList<>();
        for (int e = 0; e < emails.size(); e++) {
          int first = e / perWave;
          if (first == wave) {
            due.add(emails.get(e));
            due.add(emails.get(e));
          }
          for (int later : REOPENS) if (first + later == wave) due.add(emails.get(e));
        }
        Collections.shuffle(due, random);
        for (MessageToken email : due) {
          Node node = nodes.get(random.nextInt(nodes.size()));
          opens.add(pool.submit(() -> {
            try {
              answers.add(new Answer(email, node.chooser.choose(email)));
            } catch (Throwable t) {
              errors.add(t);
            }
          }));
        }
        Thread.sleep(WAVE_GAP);
      }
      for (Future<?> open : opens) open.get(60, TimeUnit.SECONDS);
      recovery = recovered == null ? Duration.ZERO : recovered.get(60, TimeUnit.SECONDS);
    }
    for (Node node : nodes) node.chooser.flush();

    // the oracle
    Map<MessageToken, Set<List<String>>> shown = new ConcurrentHashMap<>();
    Map<MessageToken, AtomicInteger> computedUnderLock = new ConcurrentHashMap<>();
    long repeatedProducts = 0;
    synchronized (answers) {
      for (Answer answer : answers) {
        List<String> products = answer.list().productIds();
        shown.computeIfAbsent(answer.email(), e -> new HashSet<>()).add(products);
        if (new HashSet<>(products).size() != products.size()) repeatedProducts++;
        if (answer.list().how() == ChosenSlots.How.COMPUTED)
          computedUnderLock
              .computeIfAbsent(answer.email(), e -> new AtomicInteger())
              .incrementAndGet();
      }
    }
    Set<MessageToken> twoLists = new HashSet<>();
    shown.forEach((email, lists) -> {
      if (lists.size() > 1) twoLists.add(email);
    });
    long grantedTwice =
        computedUnderLock.values().stream().filter(count -> count.get() > 1).count();
    List<String> acknowledged = new ArrayList<>();
    List<String> stored = new ArrayList<>();
    for (MessageToken email : shown.keySet()) {
      acknowledged.add(email.message().text());
      var kept = nodes.getFirst().chooser.kept(email);
      if (kept.isEmpty()) continue;
      stored.add(email.message().text());
      if (!shown.get(email).contains(kept.get().productIds())) twoLists.add(email);
    }
    Set<MessageToken> duplicated = new HashSet<>(twoLists);
    computedUnderLock.forEach((email, count) -> {
      if (count.get() > 1) duplicated.add(email);
    });
    Tally tally = Tally.of(acknowledged, stored);
    double fallbacks =
        nodes.stream().mapToDouble(n -> n.counter("tidings_opentime_fallbacks")).sum();
    double topologyChanges = nodes.stream()
        .mapToDouble(n -> n.counter(RedisCoordination.TOPOLOGY_CHANGES))
        .sum();
    double scriptLoads = nodes.stream()
        .mapToDouble(n -> n.counter(RedisCoordination.SCRIPT_LOADS))
        .sum();
    String note = String.format(
        Locale.ROOT,
        "%d opens of %d emails (%d on the killed primary's slots) on 3 in-process nodes; primary"
            + " :%d SIGKILLed at wave %d of %d; %.0f opens answered by a fallback during the"
            + " failover; %d emails shown two lists, %d lists computed under the lock twice, %d"
            + " lists repeating a product; %d open errors; topology changes seen %.0f, scripts"
            + " reloaded %.0f",
        answers.size(),
        EMAILS,
        onVictim,
        victim,
        KILL_AT_WAVE,
        WAVES,
        fallbacks,
        twoLists.size(),
        grantedTwice,
        repeatedProducts,
        errors.size(),
        topologyChanges,
        scriptLoads);
    System.out.printf(
        Locale.ROOT,
        "[fault] recovery: %d ms from the SIGKILL to the first compute-once on the killed"
            + " primary's slots%n",
        recovery.toMillis());
    FaultReport.recordAndCheck(new FaultReport.Outcome(
        "1 Redis primary killed during an open burst (failover)",
        "Redis Cluster 3 primaries + 3 replicas, node timeout 1 s; PostgreSQL",
        tally.acknowledged(),
        tally.stored(),
        tally.lost(),
        duplicated.size(),
        0,
        recovery,
        note));
    assertThat(errors).as("opens that threw").isEmpty();
    assertThat(repeatedProducts).as("lists repeating a product").isZero();
    assertThat(acknowledged).as("emails answered").hasSize(EMAILS);
    assertThat(fallbacks)
        .as("opens answered by a fallback while the primary was gone")
        .isPositive();
  }

  /** The Redis key tag of an email's slot list, as SlotChooser and the adapter build it. */
  private static String key(MessageToken email) {
    return "slots:" + email.message().text();
  }

  /** From the kill until a compute-once on a fresh key of the dead primary's slots is computed. */
  private static Duration firstSuccessOn(Node node, Set<Integer> slots, long killedAt)
      throws InterruptedException {
    ComputeOnce once = node.coordination.computeOnce();
    long deadline = killedAt + TimeUnit.SECONDS.toNanos(60);
    for (int probe = 0; System.nanoTime() < deadline; probe++) {
      String key = "probe-" + probe;
      if (!slots.contains(SlotHash.getSlot(key))) continue;
      try {
        if (once.computeOnce(key, TIMINGS, () -> "up") instanceof ComputeOnce.Outcome.Computed)
          return Duration.ofNanos(System.nanoTime() - killedAt);
      } catch (CoordinationException e) {
        // not yet
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no compute-once succeeded on the killed primary's slots in 60 s");
  }

  /**
   * Recommends K products from a fixed catalogue by the subscriber alone: the same email gets the same
   * list wherever and whenever it is computed, as a recommender on unchanged signals does.
   */
  private static final class SameAnswerRecommender implements Recommender {
    @Override
    public Recommendations recommend(RecommendationRequest request) {
      int start = Math.floorMod(request.subscriberId().hashCode() * 7, CATALOG.size());
      List<String> ids = new ArrayList<>();
      for (int i = 0; ids.size() < request.k() && i < CATALOG.size(); i++) {
        String id = CATALOG.get((start + i) % CATALOG.size());
        if (!request.exclude().contains(id)) ids.add(id);
      }
      return new Recommendations(
          ids.stream().map(id -> new Recommended(id, "test", 1.0)).toList());
    }
  }
}
