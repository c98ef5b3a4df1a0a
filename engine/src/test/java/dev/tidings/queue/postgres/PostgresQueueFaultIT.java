package dev.tidings.queue.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.Subscription;
import dev.tidings.storage.Database;
import dev.tidings.storage.EmbeddedPostgresServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A private embedded PostgreSQL dies under a {@link PostgresWorkQueue} (an immediate shutdown: no
 * checkpoint, WAL replay on the next start, as after a crash) and starts again on the same data
 * directory and port. The machine's shared PostgreSQL is never touched.
 */
class PostgresQueueFaultIT {
  private final String schema = "fault_"
      + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
  /** A short visibility timeout, so that messages held by a consumer at the crash come back soon. */
  private final QueueSpec spec =
      new QueueSpec("fault-" + UUID.randomUUID(), 0, 5, Duration.ofSeconds(2));

  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private Path directory;
  private EmbeddedPostgresServer server;
  private int port;

  @BeforeEach
  void startPrivatePostgres() throws IOException {
    directory = Files.createTempDirectory("tidings-pg-fault");
    server = EmbeddedPostgresServer.start(directory.resolve("pg"));
    port = server.port();
  }

  @AfterEach
  void stopEverything() throws Exception {
    threads.shutdownNow();
    try {
      for (AutoCloseable closeable : toClose.reversed()) closeable.close();
    } finally {
      try {
        if (server != null) server.close();
      } finally {
        deleteRecursively(directory);
      }
    }
  }

  @Test
  void publishes_that_returned_before_a_crash_are_all_delivered_after_the_restart()
      throws Exception {
    Database database = open(); // a pool of its own, as a node has
    PostgresWorkQueue queue = queue(database, PostgresWorkQueueFixture.FAST);
    queue.declare(spec);
    Set<String> consumed = ConcurrentHashMap.newKeySet();
    var held = new CountDownLatch(1);
    var crashed = new CountDownLatch(1);
    // The consumer holds what it got before the crash across it and acks it afterwards. Such an ack
    // either fails (the lease runs out and the message must come back) or, settled once the
    // database is back, removes it: both count as consumed, and the queue must end up empty, so a
    // message whose ack failed but that never came back is caught by the depth.
    toClose.add(queue.subscribe(spec.name(), 1, 3, delivery -> {
      if (crashed.getCount() > 0) {
        held.countDown();
        crashed.await(30, TimeUnit.SECONDS);
      }
      consumed.add(id(delivery));
      return Disposition.ACK;
    }));
    Set<String> published = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < 100; i++) {
      queue.publish(spec.name(), message("before-" + i));
      published.add("before-" + i);
    }
    assertThat(held.await(10, TimeUnit.SECONDS))
        .as("the consumer holds messages")
        .isTrue();

    crash();
    crashed.countDown();

    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      // Hikari waits its connection timeout for a connection
      // before it gives up: both calls at once.
      Future<Optional<String>> problem = threads.submit(database::problem);
      assertThatThrownBy(() -> queue.publish(spec.name(), message("during")))
          .as("a publish while the database is down is refused, not dropped")
          .isInstanceOf(QueueUnavailableException.class);
      assertThat(problem.get()).as("Database.problem() reports the outage").isPresent();
    });

    restart();

    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      assertThat(poll(Duration.ofSeconds(20), () -> database.problem().isEmpty()))
          .as("the pool reconnects")
          .isTrue();
      queue.publish(spec.name(), message("after"));
      published.add("after");
      assertThat(poll(Duration.ofSeconds(20), () -> consumed.containsAll(published)))
          .as("every publish that returned is delivered; missing: %s", missing(published, consumed))
          .isTrue();
      assertThat(poll(Duration.ofSeconds(10), () -> queue.depth(spec.name()) == 0))
          .as("nothing is left behind: every ack that failed brought its message back")
          .isTrue();
    });
    assertThat(consumed).doesNotContain("during");
  }

  @Test
  void consumers_are_woken_by_notifications_again_after_a_restart() throws Exception {
    // Consumers poll only every minute: a message consumed within a second came by NOTIFY.
    var slowPoll = new PostgresQueueOptions(
        Duration.ofMinutes(1), PostgresQueueOptions.DEFAULT_NOTIFY_INTERVAL);
    PostgresWorkQueue consumerNode = queue(open(), slowPoll);
    consumerNode.declare(spec);
    PostgresWorkQueue publisherNode = queue(open(), slowPoll);
    Set<String> consumed = ConcurrentHashMap.newKeySet();
    Subscription subscription = consumerNode.subscribe(spec.name(), 1, 4, delivery -> {
      consumed.add(id(delivery));
      return Disposition.ACK;
    });
    toClose.add(subscription);
    assertThat(publishedAndConsumedQuickly(publisherNode, "before", consumed))
        .as("NOTIFY wakes the consumer")
        .isTrue();

    crash();
    restart();

    assertTimeoutPreemptively(Duration.ofSeconds(40), () -> {
      // The listener reconnects by itself; until then a notification may be lost, so keep trying.
      int inARow = 0;
      for (int attempt = 0; inARow < 3 && attempt < 30; attempt++) {
        inARow = publishedAndConsumedQuickly(publisherNode, "after-" + attempt, consumed)
            ? inARow + 1
            : 0;
      }
      assertThat(inARow)
          .as("three publishes in a row woke the consumer by NOTIFY")
          .isEqualTo(3);
    });
  }

  /** Publishes from another node and tells whether the consumer got it within a second. */
  private boolean publishedAndConsumedQuickly(
      PostgresWorkQueue publisher, String id, Set<String> consumed) throws InterruptedException {
    try {
      publisher.publish(spec.name(), message(id));
    } catch (QueueUnavailableException stillDown) {
      Thread.sleep(200);
      return false;
    }
    return poll(Duration.ofSeconds(1), () -> consumed.contains(id));
  }

  private Database open() {
    Database database = Database.connect(
        server.connectionSpec(4).withSchema(schema), () -> {}, new SimpleMeterRegistry());
    toClose.add(database);
    database.migrate();
    return database;
  }

  private PostgresWorkQueue queue(Database database, PostgresQueueOptions options) {
    var queue = new PostgresWorkQueue(database, options, new SimpleMeterRegistry());
    toClose.add(queue);
    return queue;
  }

  /**
   * SIGQUIT to the postmaster: PostgreSQL's immediate shutdown, which ends every backend at once and
   * skips the checkpoint, so the restart replays the WAL as after a crash.
   */
  private void crash() throws Exception {
    long pid = Long.parseLong(Files.readAllLines(directory.resolve("pg").resolve("postmaster.pid"))
        .getFirst()
        .strip());
    Process kill =
        new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0)
        .as("kill -QUIT %s", pid)
        .isTrue();
    Optional<ProcessHandle> postmaster = ProcessHandle.of(pid);
    if (postmaster.isPresent()) postmaster.get().onExit().get(20, TimeUnit.SECONDS);
    server.close(); // releases the data directory's lock; there is nothing left to stop
    server = null;
  }

  private void restart() {
    server = EmbeddedPostgresServer.start(directory.resolve("pg"), port);
  }

  private static Message message(String id) {
    return Message.of(id.getBytes(StandardCharsets.UTF_8), 0);
  }

  private static String id(Delivery delivery) {
    return new String(delivery.body(), StandardCharsets.UTF_8);
  }

  private static Set<String> missing(Set<String> published, Set<String> consumed) {
    Set<String> missing = new TreeSet<>(published);
    missing.removeAll(consumed);
    return missing;
  }

  private static boolean poll(Duration bound, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) return true;
      Thread.sleep(20);
    }
    return condition.getAsBoolean();
  }

  private static void deleteRecursively(Path root) {
    if (root == null) return;
    try (var paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // best effort: a leftover temp directory is harmless
    }
  }
}
