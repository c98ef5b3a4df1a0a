package dev.tidings.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.Countdown;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A worker that stops holding a partition (dead, or frozen past its lease): the sweeper queues the
 * partition again, another worker takes it over under a newer fence, and the stale one can neither
 * claim, mark nor count down.
 */
class TakeoverTest {
  private SendHarness harness;
  private final RecordingMailTransport mail = new RecordingMailTransport();

  @BeforeEach
  void open() {
    harness = new SendHarness(TestDatabases.embedded(), SendHarness.fast());
  }

  @AfterEach
  void close() {
    harness.close();
  }

  @Test
  void a_partition_whose_worker_went_silent_is_taken_over_and_the_stale_worker_is_fenced_off()
      throws Exception {
    var job = new SendJob(11, 1, 3, 100_000);
    harness.sends().start(job, SendHarness.subscribers(50).iterator());
    // the stale worker: takes the only partition's message, leases it, claims 20 and goes silent
    harness.queue.delete(harness.options.queueName());
    harness.queue.declare(SendTopics.tasks(harness.options).spec());
    var countdown = harness.coordination.countdown();
    var ledger = new Ledger(harness.database.jdbi());
    Countdown.Lease stale = countdown
        .claim(SendWorker.countdownName(11, 1), 0, Duration.ofSeconds(1))
        .orElseThrow();
    assertThat(ledger.takePartition(11, 1, 0, stale.fence())).contains(List.of());
    List<String> claimedByStale = ledger.claim(11, 1, 0, stale.fence(), 20);
    assertThat(claimedByStale).hasSize(20);

    harness.startWorkers(mail);
    SendHarness.await(
        Duration.ofSeconds(30), () -> harness.progress(job).state().finished());

    SendProgress done = harness.progress(job);
    assertThat(done.state()).isEqualTo(SendState.COMPLETED_WITH_ERRORS);
    assertThat(done.sent()).isEqualTo(30);
    assertThat(done.unknown())
        .as("what the stale worker held may have gone out")
        .isEqualTo(20);
    assertThat(mail.accepted()).isEqualTo(30);
    claimedByStale.forEach(id -> assertThat(mail.attempts(id + "@subscribers.example.test"))
        .as("never sent blindly again")
        .isZero());

    // the stale worker wakes up
    assertThat(ledger.claim(11, 1, 0, stale.fence(), 20)).isNull();
    var late = ledger.mark(
        11,
        1,
        stale.fence(),
        List.of(new Ledger.Outcome(claimedByStale.getFirst(), Ledger.Mark.sent, "250")));
    assertThat(late).isEmpty();
    assertThat(countdown.finish(stale)).isInstanceOf(Countdown.Finish.Refused.class);
    assertThat(countdown.remaining(SendWorker.countdownName(11, 1))).hasValue(0);
    assertThat(harness.progress(job).done()).isEqualTo(50);
  }
}
