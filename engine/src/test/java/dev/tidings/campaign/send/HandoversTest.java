package dev.tidings.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.mail.Handover;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TcpProxy;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The handovers' group commit: concurrent senders' handovers share statements, each sender gets its
 * own claim's answer and only after the statement holding its row has returned, and a statement that
 * fails refuses every email in it while handing over none of their rows.
 */
@StartsServers
class HandoversTest {
  private static final long CAMPAIGN = 21;
  private static final long RUN = 1;

  private Database database;
  private Ledger ledger;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SendMetrics metrics = new SendMetrics(registry);

  @BeforeEach
  void open() {
    database = TestDatabases.embedded();
    ledger = new Ledger(database.jdbi());
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void concurrent_senders_share_statements_and_each_gets_its_own_claims_answer() throws Exception {
    List<String> claimed = planAndClaim(200, 7);
    // every fifth claim is stale: a takeover moved its partition on, so it must not go
    var senders = new ArrayList<Thread>();
    var answers = new ConcurrentHashMap<String, Boolean>();
    var handovers = new Handovers(ledger, metrics);
    var start = new CountDownLatch(1);
    for (int i = 0; i < claimed.size(); i++) {
      String id = claimed.get(i);
      long fence = i % 5 == 0 ? 6 : 7;
      senders.add(Thread.ofVirtual().start(() -> {
        Handover handover = handovers.of(new SendJob(CAMPAIGN, RUN, 3, 1000), id, fence);
        awaitQuietly(start);
        handover.begin();
        answers.put(id, handover.proceed());
      }));
    }
    start.countDown();
    for (Thread sender : senders) sender.join();

    for (int i = 0; i < claimed.size(); i++) {
      String id = claimed.get(i);
      boolean held = i % 5 != 0;
      assertThat(answers.get(id)).as(id).isEqualTo(held);
      assertThat(ledger.recipientState(CAMPAIGN, RUN, id))
          .as(id)
          .contains(held ? "handed_over" : "sending");
    }
    var batches = registry.find(SendMetrics.HANDOVER_BATCH).summary();
    assertThat(batches.totalAmount()).isEqualTo(200);
    assertThat(batches.count()).as("statements for 200 concurrent handovers").isLessThan(200);
    assertThat(registry.find(SendMetrics.HANDOVER_WAIT).timer().count()).isEqualTo(200);
  }

  @Test
  void a_sender_is_answered_only_after_the_statement_holding_its_row_returned() throws Exception {
    var writing = new CountDownLatch(1);
    var release = new CountDownLatch(1);
    var statements = new CopyOnWriteArrayList<Set<Ledger.Claim>>();
    var handovers = new Handovers(
        claims -> {
          statements.add(Set.copyOf(claims));
          writing.countDown();
          awaitQuietly(release);
          return new HashSet<>(claims);
        },
        metrics,
        1);
    var first = handovers.submit(claim("first"));
    assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();
    // while the first statement is out, the others gather into the next one
    var gathered = new ArrayList<CompletableFuture<Boolean>>();
    for (int i = 0; i < 50; i++) gathered.add(handovers.submit(claim("s" + i)));
    Thread.sleep(50);
    assertThat(first).isNotDone();
    assertThat(gathered).noneMatch(CompletableFuture::isDone);

    release.countDown();
    assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
    for (var answer : gathered) assertThat(answer.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(statements).hasSize(2);
    assertThat(statements.get(1)).hasSize(50);
  }

  @Test
  void a_failed_statement_refuses_every_email_in_it_and_hands_over_none_of_their_rows()
      throws Exception {
    List<String> claimed = planAndClaim(20, 3);
    var server = TestDatabases.embeddedServer();
    try (var proxy = TcpProxy.to("127.0.0.1", server.port());
        var proxied = Database.connect(
            new ConnectionSpec(
                "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres?user=postgres",
                Optional.empty(),
                Optional.empty(),
                database.schema(),
                2),
            () -> {},
            new SimpleMeterRegistry())) {
      var handovers = new Handovers(new Ledger(proxied.jdbi()), metrics);
      // the node loses its database mid-send
      proxy.cut();
      var refused = new AtomicInteger();
      var senders = new ArrayList<Thread>();
      for (String id : claimed) {
        senders.add(Thread.ofVirtual().start(() -> {
          Handover handover = handovers.of(new SendJob(CAMPAIGN, RUN, 3, 1000), id, 3);
          handover.begin();
          try {
            handover.proceed();
          } catch (Handovers.HandoverFailedException e) {
            refused.incrementAndGet();
          }
        }));
      }
      for (Thread sender : senders) sender.join();
      assertThat(refused).as("emails refused at the handover").hasValue(claimed.size());
    }
    assertThat(registry
            .find(SendMetrics.HANDOVER_WRITE)
            .tag("result", "failed")
            .timer()
            .count())
        .isPositive();
    for (String id : claimed)
      assertThat(ledger.recipientState(CAMPAIGN, RUN, id)).as(id).contains("sending");
    // a takeover plans them all again: nobody can have received them
    assertThat(ledger.takePartition(CAMPAIGN, RUN, 0, 4)).contains(List.of());
    assertThat(ledger.claim(CAMPAIGN, RUN, 0, 4, 100)).hasSameElementsAs(claimed);
  }

  @Test
  void a_handover_that_began_is_asked_again_on_a_later_attempt_and_a_takeover_in_between_stops_it()
      throws Exception {
    List<String> claimed = planAndClaim(1, 5);
    var handovers = new Handovers(ledger, metrics);
    Handover handover = handovers.of(new SendJob(CAMPAIGN, RUN, 3, 1000), claimed.getFirst(), 5);
    handover.begin();
    assertThat(handover.proceed()).isTrue();
    // the first attempt was refused after its data; the partition is taken over before the retry
    assertThat(ledger.takePartition(CAMPAIGN, RUN, 0, 6)).contains(claimed);
    handover.begin();
    assertThat(handover.proceed())
        .as("a takeover recorded it unknown: it must not go again")
        .isFalse();
    assertThat(ledger.recipientState(CAMPAIGN, RUN, claimed.getFirst())).contains("unknown");
  }

  @Test
  void a_statement_that_fails_fails_the_waiting_senders_with_its_cause() {
    var handovers = new Handovers(
        claims -> {
          throw new IllegalStateException("the database is gone");
        },
        metrics,
        2);
    Handover handover = handovers.of(new SendJob(CAMPAIGN, RUN, 3, 1000), "x", 1);
    assertThatThrownBy(handover::proceed)
        .isInstanceOf(Handovers.HandoverFailedException.class)
        .hasRootCauseMessage("the database is gone");
  }

  /** Plans a one-partition run of {@code count} recipients and claims them all under {@code fence}. */
  private List<String> planAndClaim(int count, long fence) {
    var job = new SendJob(CAMPAIGN, RUN, 3, 1000);
    assertThat(ledger.createRun(job, true)).isTrue();
    List<String> ids = SendHarness.subscribers(count);
    ledger.plan(
        CAMPAIGN,
        RUN,
        ids,
        ids.stream().map(id -> 0).toList(),
        Collections.nCopies(ids.size(), null));
    ledger.partitions(CAMPAIGN, RUN, Collections.singletonList(null));
    ledger.running(CAMPAIGN, RUN, 1);
    assertThat(ledger.takePartition(CAMPAIGN, RUN, 0, fence)).contains(List.of());
    List<String> claimed = ledger.claim(CAMPAIGN, RUN, 0, fence, count);
    assertThat(claimed).hasSameElementsAs(ids);
    return claimed;
  }

  private static Ledger.Claim claim(String subscriberId) {
    return new Ledger.Claim(CAMPAIGN, RUN, subscriberId, 1);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
