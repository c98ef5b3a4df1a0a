package dev.tidings.opentime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.ComputeOnce;
import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommendations.Recommended;
import dev.tidings.recommend.Recommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@StartsServers
class SlotChooserTest {
  private static final List<String> CATALOG =
      IntStream.range(0, 40).mapToObj(i -> String.format("p%02d", i)).toList();

  private final InstantSource clock = InstantSource.system();
  private final CountingRecommender recommender = new CountingRecommender();
  private final List<SlotChooser> choosers = new ArrayList<>();
  private Database database;

  @BeforeEach
  void openDatabase() {
    database = TestDatabases.embedded();
  }

  @AfterEach
  void close() {
    choosers.forEach(SlotChooser::close);
    database.close();
  }

  private SlotChooser node(ComputeOnce computeOnce, SimpleMeterRegistry metrics) {
    var chooser = new SlotChooser(
        computeOnce, recommender, database.jdbi(), clock, metrics, SlotChooser.Options.defaults());
    choosers.add(chooser);
    return chooser;
  }

  private SlotChooser node() {
    return node(InProcessCoordination.computeOnce(clock), new SimpleMeterRegistry());
  }

  private static MessageToken email(long run, String subscriber, int slots) {
    return new MessageToken(
        new MessageId(7, run, subscriber), Instant.parse("2026-11-23T10:00:00Z"), slots);
  }

  @Test
  void the_slots_of_one_email_arriving_at_once_compute_one_list_of_distinct_products()
      throws Exception {
    SlotChooser chooser = node();
    MessageToken token = email(1, "ada", 6);
    var start = new CountDownLatch(1);
    List<Future<ChosenSlots>> requests = new ArrayList<>();
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int slot = 0; slot < 24; slot++)
        requests.add(pool.submit(() -> {
          start.await();
          return chooser.choose(token);
        }));
      start.countDown();
      List<List<String>> lists = new ArrayList<>();
      for (Future<ChosenSlots> request : requests) lists.add(request.get().productIds());

      assertThat(recommender.calls).hasValue(1);
      assertThat(lists).allSatisfy(list -> assertThat(list).isEqualTo(lists.getFirst()));
      assertThat(lists.getFirst()).hasSize(6).doesNotHaveDuplicates();
    }
  }

  @Test
  void another_node_after_the_coordinator_forgot_gets_the_kept_list() throws Exception {
    MessageToken token = email(2, "bob", 4);
    SlotChooser first = node();
    ChosenSlots chosen = first.choose(token);
    first.flush();

    ChosenSlots later = node().choose(token);

    assertThat(chosen.how()).isEqualTo(ChosenSlots.How.COMPUTED);
    assertThat(later.productIds()).isEqualTo(chosen.productIds());
    assertThat(later.how()).isEqualTo(ChosenSlots.How.STORED);
    assertThat(recommender.calls).hasValue(1);
  }

  @Test
  void the_next_email_of_a_subscriber_shows_none_of_what_the_last_one_showed() throws Exception {
    SlotChooser chooser = node();
    ChosenSlots firstEmail = chooser.choose(email(3, "cy", 5));
    chooser.flush();

    ChosenSlots secondEmail = chooser.choose(email(4, "cy", 5));

    assertThat(secondEmail.productIds())
        .hasSize(5)
        .doesNotContainAnyElementsOf(firstEmail.productIds());
  }

  @Test
  void a_coordinator_that_is_down_gives_a_fallback_that_is_kept_and_counted() throws Exception {
    var metrics = new SimpleMeterRegistry();
    ComputeOnce down = new ComputeOnce() {
      @Override
      public Outcome computeOnce(String key, Timings timings, Supplier<String> compute) {
        throw new CoordinationException("Redis is down");
      }

      @Override
      public Optional<String> peek(String key) {
        throw new CoordinationException("Redis is down");
      }
    };
    MessageToken token = email(5, "dee", 4);
    SlotChooser duringOutage = node(down, metrics);

    ChosenSlots fallback = duringOutage.choose(token);
    duringOutage.flush();
    ChosenSlots afterwards = node().choose(token);

    assertThat(fallback.how()).isEqualTo(ChosenSlots.How.FALLBACK);
    assertThat(fallback.productIds()).hasSize(4).doesNotHaveDuplicates();
    assertThat(metrics.counter("tidings_opentime_fallbacks").count()).isEqualTo(1.0);
    assertThat(afterwards.productIds()).isEqualTo(fallback.productIds());
  }

  @Test
  void a_node_that_could_not_wait_for_a_slow_winner_serves_the_winners_list_once_it_exists()
      throws Exception {
    var options = new SlotChooser.Options(
        new ComputeOnce.Timings(
            Duration.ofSeconds(5), Duration.ofMinutes(1), Duration.ofMillis(100)),
        100,
        Duration.ofMillis(800));
    ComputeOnce shared = InProcessCoordination.computeOnce(clock);
    var computing = new CountDownLatch(1);
    var release = new CountDownLatch(1);
    Recommender slow = request -> {
      computing.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return recommender.recommend(request);
    };
    Recommender backwards = request -> new Recommendations(CATALOG.reversed().stream()
        .limit(request.k())
        .map(id -> new Recommended(id, "test", 1.0))
        .toList());
    var metrics = new SimpleMeterRegistry();
    SlotChooser winnerNode = chooser(shared, slow, metrics, options);
    SlotChooser waitingNode = chooser(shared, backwards, metrics, options);
    MessageToken token = email(8, "fay", 4);

    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<ChosenSlots> winner = pool.submit(() -> winnerNode.choose(token));
      computing.await(); // the winner holds the lock, choosing slowly
      ChosenSlots fallback = waitingNode.choose(token);
      waitingNode.flush();
      release.countDown();
      ChosenSlots chosen = winner.get();
      winnerNode.flush();

      assertThat(fallback.how()).isEqualTo(ChosenSlots.How.FALLBACK);
      assertThat(fallback.productIds()).isNotEqualTo(chosen.productIds());
      assertThat(waitingNode.choose(token).productIds()).isEqualTo(chosen.productIds());
      assertThat(waitingNode.kept(token).orElseThrow().productIds()).isEqualTo(chosen.productIds());
      assertThat(
              new SlotTable(database.jdbi()).find(token.message()).orElseThrow().productIds())
          .as("the winner's list replaces the fallback's in the table")
          .isEqualTo(chosen.productIds());
    }
  }

  private SlotChooser chooser(
      ComputeOnce computeOnce,
      Recommender recommends,
      SimpleMeterRegistry metrics,
      SlotChooser.Options options) {
    var chooser =
        new SlotChooser(computeOnce, recommends, database.jdbi(), clock, metrics, options);
    choosers.add(chooser);
    return chooser;
  }

  @Test
  void a_repeated_request_on_a_node_is_served_from_its_near_cache() {
    var metrics = new SimpleMeterRegistry();
    SlotChooser chooser = node(InProcessCoordination.computeOnce(clock), metrics);
    MessageToken token = email(6, "eve", 3);
    ChosenSlots first = chooser.choose(token);

    ChosenSlots again = chooser.choose(token);

    assertThat(again.how()).isEqualTo(ChosenSlots.How.NEAR_CACHE);
    assertThat(again.productIds()).isEqualTo(first.productIds());
    assertThat(metrics.get(SlotChooser.LATENCY).tag("path", "computed").timer().count())
        .as("the first open, timed as computed")
        .isEqualTo(1);
    assertThat(
            metrics.get(SlotChooser.LATENCY).tag("path", "near_cache").timer().count())
        .as("the re-open")
        .isEqualTo(1);
    assertThat(metrics.get(SlotChooser.LATENCY).tag("path", "fallback").timer().count())
        .isZero();
  }

  /** Recommends the catalog in order, minus the exclusions, counting its calls. */
  private static final class CountingRecommender implements Recommender {
    final AtomicInteger calls = new AtomicInteger();
    final List<RecommendationRequest> requests = new CopyOnWriteArrayList<>();

    @Override
    public Recommendations recommend(RecommendationRequest request) {
      calls.incrementAndGet();
      requests.add(request);
      try {
        Thread.sleep(20); // long enough for the other slots to pile up behind the lock
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new Recommendations(CATALOG.stream()
          .filter(id -> !request.exclude().contains(id))
          .limit(request.k())
          .map(id -> new Recommended(id, "test", 1.0))
          .toList());
    }
  }
}
