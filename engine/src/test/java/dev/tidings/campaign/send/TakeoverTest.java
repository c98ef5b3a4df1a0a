package dev.tidings.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.Countdown;
import dev.tidings.message.MessageId;
import dev.tidings.testing.PlainComposer;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A worker that stops holding a partition (dead, or frozen past its lease): the sweeper queues the
 * partition again, another worker takes it over under a newer fence, sends what the stale one claimed
 * but never handed to the transport, records what it handed over as unknown, and the stale one can
 * neither claim, hand over, mark nor count down.
 */
@StartsServers
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
    // it handed five of them to the transport before it went silent: those may have arrived
    List<String> handedOver = claimedByStale.subList(0, 5);
    List<String> neverHandedOver = claimedByStale.subList(5, 20);
    var handovers = handedOver.stream()
        .map(id -> new Ledger.Claim(11, 1, id, stale.fence()))
        .collect(Collectors.toSet());
    assertThat(ledger.handOver(handovers)).isEqualTo(handovers);

    harness.startWorkers(mail);
    SendHarness.await(
        Duration.ofSeconds(30), () -> harness.progress(job).state().finished());

    SendProgress done = harness.progress(job);
    assertThat(done.state()).isEqualTo(SendState.COMPLETED_WITH_ERRORS);
    assertThat(done.sent()).isEqualTo(45);
    assertThat(done.unknown())
        .as("what the stale worker handed over may have gone out")
        .isEqualTo(5);
    assertThat(mail.accepted()).isEqualTo(45);
    handedOver.forEach(id -> assertThat(mail.attempts(id + "@subscribers.example.test"))
        .as("never sent blindly again")
        .isZero());
    neverHandedOver.forEach(id -> assertThat(mail.attempts(id + "@subscribers.example.test"))
        .as("claimed but never handed over: nobody had it, so it is sent once")
        .isEqualTo(1));

    // the stale worker wakes up: it can neither claim, hand over, mark nor count down
    assertThat(ledger.claim(11, 1, 0, stale.fence(), 20)).isNull();
    assertThat(ledger.handOver(
            Set.of(new Ledger.Claim(11, 1, neverHandedOver.getFirst(), stale.fence()))))
        .isEmpty();
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

  @Test
  void a_takeover_hands_the_notes_of_what_the_stale_worker_handed_over_back_to_the_composer()
      throws Exception {
    var job = new SendJob(14, 1, 3, 100_000);
    harness.sends().start(job, SendHarness.subscribers(30).iterator());
    harness.queue.delete(harness.options.queueName());
    harness.queue.declare(SendTopics.tasks(harness.options).spec());
    var ledger = new Ledger(harness.database.jdbi());
    Countdown.Lease stale = harness
        .coordination
        .countdown()
        .claim(SendWorker.countdownName(14, 1), 0, Duration.ofSeconds(1))
        .orElseThrow();
    assertThat(ledger.takePartition(14, 1, 0, stale.fence())).contains(List.of());
    List<String> claimed = ledger.claim(14, 1, 0, stale.fence(), 10);
    // three handed over with what their composer asked to keep, one without, the rest never
    var noted = claimed.subList(0, 3).stream()
        .map(id -> new Ledger.Claim(14, 1, id, stale.fence(), "told:" + id))
        .collect(Collectors.toSet());
    var bare = Set.of(new Ledger.Claim(14, 1, claimed.get(3), stale.fence()));
    assertThat(ledger.handOver(noted)).isEqualTo(noted);
    assertThat(ledger.handOver(bare)).isEqualTo(bare);

    var recovered = new ConcurrentHashMap<String, String>();
    var plain = new PlainComposer();
    harness.startWorkers(
        new Composer() {
          @Override
          public Composed compose(SendJob sent, MessageId message) {
            return plain.compose(sent, message);
          }

          @Override
          public void sentByLostWorker(MessageId message, String note) {
            recovered.put(message.subscriberId(), note);
          }
        },
        mail);
    SendHarness.await(
        Duration.ofSeconds(30), () -> harness.progress(job).state().finished());

    assertThat(harness.progress(job).unknown()).isEqualTo(4);
    assertThat(recovered)
        .as("each note back once its recipient was settled unknown; none for the one without")
        .isEqualTo(
            claimed.subList(0, 3).stream().collect(Collectors.toMap(id -> id, id -> "told:" + id)));
  }

  @Test
  void
      a_trigger_delivered_twice_is_handed_over_by_one_claim_and_a_dead_workers_handover_settles_unknown() {
    var job = new SendJob(12, 1, SendJob.TRIGGERED_PRIORITY, 50);
    harness.sends().trigger(job, "t-1");
    var ledger = new Ledger(harness.database.jdbi());

    long first = ledger.claimTriggered(12, 1, "t-1").orElseThrow();
    // the trigger is delivered again (the first worker's connection dropped) while it still sends
    long second = ledger.claimTriggered(12, 1, "t-1").orElseThrow();
    assertThat(second).isGreaterThan(first);
    assertThat(ledger.handOver(Set.of(new Ledger.Claim(12, 1, "t-1", first)))).isEmpty();
    assertThat(ledger.handOver(Set.of(new Ledger.Claim(12, 1, "t-1", second)))).hasSize(1);
    assertThat(ledger.claimTriggered(12, 1, "t-1"))
        .as("handed over: past claiming")
        .isEmpty();

    // the second worker dies before it marks the reply; a later delivery settles the recipient
    assertThat(ledger.settleTriggered(12, 1, "t-1", Duration.ofHours(1)))
        .as("its worker may still be waiting for the reply")
        .isFalse();
    assertThat(ledger.settleTriggered(12, 1, "t-1", Duration.ZERO)).isTrue();
    assertThat(ledger.recipientState(12, 1, "t-1")).contains("unknown");
    assertThat(harness.progress(job).unknown()).isEqualTo(1);
  }

  @Test
  void a_trigger_delivered_again_at_once_after_its_worker_died_past_the_handover_settles_unknown()
      throws Exception {
    var job = new SendJob(14, 1, SendJob.TRIGGERED_PRIORITY, 50);
    harness.sends().trigger(job, "t-2");
    var ledger = new Ledger(harness.database.jdbi());
    // the dead worker: claimed the trigger and handed it to its transport, never marked it
    long fence = ledger.claimTriggered(14, 1, "t-2").orElseThrow();
    assertThat(ledger.handOver(Set.of(new Ledger.Claim(14, 1, "t-2", fence)))).hasSize(1);

    // its message comes straight back (RabbitMQ redelivers when the connection drops), well within
    // the lease: too soon to settle, yet the only delivery that can ever settle it
    harness.startWorkers(mail);
    SendHarness.await(Duration.ofSeconds(20), () -> harness.progress(job).unknown() == 1);
    assertThat(ledger.recipientState(14, 1, "t-2")).contains("unknown");
    assertThat(mail.attempts("t-2@subscribers.example.test"))
        .as("never sent blindly again")
        .isZero();
  }

  @Test
  void a_run_whose_partition_messages_were_lost_is_queued_again_once_it_has_stalled()
      throws Exception {
    var job = new SendJob(13, 1, 3, 100_000);
    harness.sends().start(job, SendHarness.subscribers(250).iterator());
    // the queue loses the run's three partition messages before any worker leased one
    harness.queue.delete(harness.options.queueName());
    harness.queue.declare(SendTopics.tasks(harness.options).spec());
    harness.startWorkers(mail);

    assertThat(harness.pipeline.sweepNow())
        .as("nothing to sweep while the run is young")
        .isZero();
    harness
        .database
        .jdbi()
        .useHandle(
            handle -> handle.execute("UPDATE send_run SET progressed_at = now() - interval '1 hour'"
                + " WHERE campaign_id = 13 AND run_id = 1"));
    assertThat(harness.pipeline.sweepNow()).isEqualTo(3);
    assertThat(harness.pipeline.sweepNow()).as("one node takes a stall").isZero();

    SendHarness.await(
        Duration.ofSeconds(30), () -> harness.progress(job).state().finished());
    assertThat(harness.progress(job).state()).isEqualTo(SendState.COMPLETED);
    assertThat(mail.accepted()).isEqualTo(250);
  }
}
