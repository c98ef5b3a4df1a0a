package dev.tidings.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A cancel skips planned recipients while a worker claims the same partition's next chunk: each
 * recipient ends in one of the two, never both (a skipped recipient claimed again would be sent
 * after the cancel and counted twice, so the run's done count would pass its planned count).
 */
@StartsServers
class ClaimDuringCancelTest {
  private static final int RECIPIENTS = 6_000;
  private SendHarness harness;

  @BeforeEach
  void open() {
    harness = new SendHarness(TestDatabases.embedded(), SendHarness.fast());
  }

  @AfterEach
  void close() {
    harness.close();
  }

  @Test
  void a_recipient_is_either_claimed_or_skipped_never_both() throws Exception {
    var job = new SendJob(21, 1, 3, 100_000);
    harness.sends().start(job, SendHarness.subscribers(RECIPIENTS).iterator());
    var ledger = new Ledger(harness.database.jdbi());
    var countdown = harness.coordination.countdown();
    int partitions = ledger.unfinishedPartitions(21, 1).size();
    var fences = new long[partitions];
    for (int part = 0; part < partitions; part++) {
      var lease = countdown
          .claim(SendWorker.countdownName(21, 1), part, Duration.ofMinutes(1))
          .orElseThrow();
      fences[part] = lease.fence();
      assertThat(ledger.takePartition(21, 1, part, fences[part])).contains(List.of());
    }

    var start = new CountDownLatch(1);
    var threads = Executors.newVirtualThreadPerTaskExecutor();
    CompletableFuture<Set<String>> claimed = CompletableFuture.supplyAsync(
        () -> {
          await(start);
          var all = new HashSet<String>();
          for (int part = 0; part < partitions; part++) {
            List<String> chunk;
            while ((chunk = ledger.claim(21, 1, part, fences[part], 3)) != null
                && !chunk.isEmpty()) {
              assertThat(chunk).as("a claim takes at most its limit").hasSizeLessThanOrEqualTo(3);
              all.addAll(chunk);
            }
          }
          return all;
        },
        threads);
    CompletableFuture<List<String>> skipped = CompletableFuture.supplyAsync(
        () -> {
          await(start);
          var all = new ArrayList<String>();
          List<String> batch;
          while (!(batch = ledger.skipPlanned(21, 1, 2, "the run was cancelled")).isEmpty()) {
            all.addAll(batch);
          }
          return all;
        },
        threads);
    start.countDown();

    Set<String> claimedIds = claimed.get();
    Set<String> skippedIds = new HashSet<>(skipped.get());
    assertThat(skipped.get()).as("no recipient skipped twice").hasSameSizeAs(skippedIds);
    assertThat(claimedIds)
        .as("claimed after it was skipped")
        .doesNotContainAnyElementsOf(skippedIds);
    assertThat(claimedIds.size() + skippedIds.size()).isEqualTo(RECIPIENTS);
    assertThat(ledger.run(21, 1).orElseThrow().skipped()).isEqualTo(skippedIds.size());
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
