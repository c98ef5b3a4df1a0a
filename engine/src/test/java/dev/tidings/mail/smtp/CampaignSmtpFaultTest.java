package dev.tidings.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.campaign.send.Composer;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.campaign.send.SendOptions;
import dev.tidings.campaign.send.SendPipeline;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.campaign.send.SendState;
import dev.tidings.coordination.Coordination;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.coordination.postgres.PostgresCountdown;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Subscribing;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.PlainComposer;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A campaign run against an SMTP server that misbehaves on cue: each fault ends up as the ledger state
 * the send pipeline promises (4xx retried, 5xx failed, a drop before DATA retried, a drop after the
 * message data unknown and never sent again).
 */
@StartsServers
class CampaignSmtpFaultTest {
  private Database database;
  private PostgresWorkQueue queue;
  private ScriptedSmtpServer smtp;
  private SmtpMailTransport transport;
  private SendPipeline pipeline;
  private final List<Subscription> running = new ArrayList<>();
  private SendOptions options;

  @BeforeEach
  void open() throws Exception {
    database = TestDatabases.embedded();
    queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    smtp = ScriptedSmtpServer.start();
    transport = SmtpMailTransport.fromUrl(
        URI.create(
            "smtp://127.0.0.1:" + smtp.port() + "?pool=2&readTimeoutMs=2000&sendTimeoutMs=4000"),
        InstantSource.system());
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    options = SendOptions.defaults()
        .withPartitionSize(10)
        .withDeferrals(2, Duration.ofMillis(100))
        .withLeaseTtl(Duration.ofSeconds(10))
        .withWorkers(1, 1, 5)
        .withStateCacheTtl(Duration.ofMillis(100))
        .withQueues("t-smtp-" + suffix, "t-smtp-out-" + suffix);
    pipeline = new SendPipeline(
        database.jdbi(),
        queue,
        new Coordination(
            InProcessCoordination.computeOnce(InstantSource.system()),
            new PostgresCountdown(database),
            InProcessCoordination.rateLimiter(InstantSource.system())),
        options,
        InstantSource.system(),
        new SimpleMeterRegistry());
    Composer composer = new PlainComposer();
    ConsumerGroup group = pipeline.consumers(composer, transport);
    group.register(new Subscribing(queue, running));
  }

  @AfterEach
  void close() throws Exception {
    running.forEach(Subscription::close);
    pipeline.close();
    queue.delete(options.queueName());
    queue.delete(options.receiptQueueName());
    queue.close();
    transport.close();
    smtp.close();
    database.close();
  }

  private SendProgress run(long campaign, int recipients) throws InterruptedException {
    var job = new SendJob(campaign, 1, 3, 1_000);
    var ids = new ArrayList<String>();
    for (int i = 0; i < recipients; i++) ids.add("r" + i);
    pipeline.sends().start(job, ids.iterator());
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      SendProgress progress = pipeline.sends().progress(campaign, 1).orElseThrow();
      if (progress.state().finished()) return progress;
      Thread.sleep(50);
    }
    throw new AssertionError(
        "the run did not finish: " + pipeline.sends().progress(campaign, 1).orElseThrow());
  }

  @Test
  void a_4xx_then_success_is_sent_once() throws Exception {
    smtp.endOfDataReply = "451 4.3.0 try again later";
    Thread.ofVirtual().start(() -> {
      try {
        Thread.sleep(150);
      } catch (InterruptedException e) {
        return;
      }
      smtp.endOfDataReply = "250 2.0.0 queued";
    });
    SendProgress done = run(21, 1);
    assertThat(done.state()).isEqualTo(SendState.COMPLETED);
    assertThat(done.sent()).isEqualTo(1);
    assertThat(smtp.accepted.get()).isEqualTo(1);
  }

  @Test
  void a_5xx_fails_for_good() throws Exception {
    smtp.rcptReply = "550 5.1.1 no such mailbox";
    SendProgress done = run(22, 3);
    assertThat(done.state()).isEqualTo(SendState.COMPLETED_WITH_ERRORS);
    assertThat(done.failed()).isEqualTo(3);
    assertThat(smtp.accepted.get()).isZero();
  }

  @Test
  void a_connection_dropped_before_data_is_retried_and_sent() throws Exception {
    smtp.dropAtMailFrom = true;
    Thread.ofVirtual().start(() -> {
      try {
        Thread.sleep(150);
      } catch (InterruptedException e) {
        return;
      }
      smtp.dropAtMailFrom = false;
    });
    SendProgress done = run(23, 2);
    assertThat(done.state()).isEqualTo(SendState.COMPLETED);
    assertThat(done.sent()).isEqualTo(2);
    assertThat(smtp.accepted.get()).isEqualTo(2);
  }

  @Test
  void a_connection_dropped_after_the_data_is_unknown_and_not_sent_again() throws Exception {
    smtp.dropAtEndOfData = true;
    SendProgress done = run(24, 2);
    assertThat(done.state()).isEqualTo(SendState.COMPLETED_WITH_ERRORS);
    assertThat(done.unknown()).isEqualTo(2);
    assertThat(smtp.connections.get()).as("one attempt each, no blind retry").isEqualTo(2);
  }
}
