package dev.tidings.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.tidings.mail.SendResult;
import dev.tidings.message.MessageId;
import dev.tidings.testing.PlainComposer;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The send pipeline end to end on the embedded default: queue tables, PostgreSQL countdown, outbox-like transport. */
@StartsServers
class SendPipelineTest {
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
  void every_recipient_gets_one_email_and_the_run_completes() throws Exception {
    var job = new SendJob(1, 1, 3, 100_000);
    var recipients = SendHarness.subscribers(1_050);
    SendProgress planned = harness.sends().start(job, recipients.iterator());
    assertThat(planned.planned()).isEqualTo(1_050);
    harness.startWorkers(mail);

    SendHarness.await(
        Duration.ofSeconds(60), () -> harness.progress(job).state().finished());

    SendProgress done = harness.progress(job);
    assertThat(done.state()).isEqualTo(SendState.COMPLETED);
    assertThat(done.sent()).isEqualTo(1_050);
    assertThat(done.done()).isEqualTo(done.planned());
    assertThat(done.finishedAt()).isPresent();
    assertThat(mail.acceptedFor).hasSize(1_050);
    assertThat(mail.acceptedFor.values()).allMatch(count -> count.get() == 1);
    assertThat(harness.queue.depth(harness.options.receiptQueueName())).isEqualTo(1_050);
  }

  @Test
  void starting_a_run_again_changes_nothing() throws Exception {
    var job = new SendJob(1, 2, 3, 100_000);
    harness.sends().start(job, SendHarness.subscribers(250).iterator());
    SendProgress again = harness.sends().start(job, SendHarness.subscribers(400).iterator());
    assertThat(again.planned()).isEqualTo(250);
    assertThat(harness.queue.depth(harness.options.queueName())).isEqualTo(3);

    harness.startWorkers(mail);
    SendHarness.await(
        Duration.ofSeconds(60), () -> harness.progress(job).state().finished());
    assertThat(mail.accepted()).isEqualTo(250);
  }

  @Test
  void smtp_replies_become_ledger_states_and_receipts() throws Exception {
    var deferredOnce = new AtomicInteger();
    mail.answer(email -> switch (email.to().email().substring(0, 7)) {
      case "s100000" ->
        deferredOnce.getAndIncrement() == 0
            ? new SendResult.Deferred(451, "try later")
            : new SendResult.Accepted(email.messageId(), "250 ok");
      case "s100001" -> new SendResult.Rejected(550, "no such user");
      case "s100002" -> new SendResult.Unknown("connection lost after DATA");
      case "s100003" -> new SendResult.Deferred(421, "busy");
      default -> new SendResult.Accepted(email.messageId(), "250 ok");
    });
    var job = new SendJob(2, 1, 3, 100_000);
    harness.sends().start(job, SendHarness.subscribers(10).iterator());
    harness.startWorkers(mail);
    SendHarness.await(
        Duration.ofSeconds(30), () -> harness.progress(job).state().finished());

    SendProgress done = harness.progress(job);
    assertThat(done.state()).isEqualTo(SendState.COMPLETED_WITH_ERRORS);
    assertThat(done.sent()).isEqualTo(7);
    assertThat(done.failed()).isEqualTo(2);
    assertThat(done.unknown()).isEqualTo(1);
    assertThat(mail.attempts("s100000@subscribers.example.test")).isEqualTo(2);
    assertThat(mail.attempts("s100001@subscribers.example.test")).isEqualTo(1);
    assertThat(mail.attempts("s100002@subscribers.example.test"))
        .as("a reply lost after DATA is never retried blindly")
        .isEqualTo(1);
    assertThat(mail.attempts("s100003@subscribers.example.test"))
        .as("4xx tried again up to the limit")
        .isEqualTo(3);
    var ledger = new Ledger(harness.database.jdbi());
    assertThat(ledger.recipientState(2, 1, "s100002")).contains("unknown");
    assertThat(ledger.recipientState(2, 1, "s100003")).contains("failed");
    assertThat(outcomes())
        .containsEntry("sent", 7.0)
        .containsEntry("failed", 2.0)
        .containsEntry("unknown", 1.0)
        .containsEntry("deferred", 3.0)
        .containsEntry("skipped", 0.0);
    assertThat(harness.metrics.get(SendMetrics.IN_FLIGHT).gauge().value()).isZero();
    // 10 final receipts and one DEFERRED for each 4xx that was retried (1 + 2)
    assertThat(harness.queue.depth(harness.options.receiptQueueName())).isEqualTo(13);
  }

  @Test
  void a_line_logged_about_an_email_carries_its_campaign_run_and_message() throws Exception {
    Composer failsAfterSending = (job, message) -> {
      var plain = (Composer.Composed.Email) new PlainComposer().compose(job, message);
      return new Composer.Composed.Email(plain.email(), () -> {
        throw new IllegalStateException("what follows a send broke");
      });
    };
    var logger = (Logger) LoggerFactory.getLogger(RecipientSender.class);
    var logged = new ListAppender<ILoggingEvent>();
    logged.start();
    logger.addAppender(logged);
    try {
      var job = new SendJob(7, 2, 3, 100_000);
      harness.sends().start(job, SendHarness.subscribers(1).iterator());
      harness.startWorkers(failsAfterSending, mail);
      SendHarness.await(
          Duration.ofSeconds(30), () -> harness.progress(job).state().finished());
    } finally {
      logger.detachAppender(logged);
    }
    var line = logged.list.stream()
        .filter(event -> event.getFormattedMessage().contains("what follows a send failed"))
        .findFirst()
        .orElseThrow();
    assertThat(line.getMDCPropertyMap())
        .containsEntry(LogFields.CAMPAIGN, "7")
        .containsEntry(LogFields.RUN, "2")
        .containsEntry(
            LogFields.MESSAGE, new MessageId(7, 2, SendHarness.subscribers(1).getFirst()).text());
  }

  @Test
  void recipients_the_composer_skips_count_as_skipped() throws Exception {
    Composer skipsOdd =
        (job, message) -> Integer.parseInt(message.subscriberId().substring(1)) % 2 == 1
            ? new Composer.Composed.Skip("unsubscribed")
            : new PlainComposer().compose(job, message);
    var job = new SendJob(3, 1, 3, 100_000);
    harness.sends().start(job, SendHarness.subscribers(40).iterator());
    harness.startWorkers(skipsOdd, mail);
    SendHarness.await(
        Duration.ofSeconds(30), () -> harness.progress(job).state().finished());
    assertThat(harness.progress(job).skipped()).isEqualTo(20);
    assertThat(harness.progress(job).sent()).isEqualTo(20);
    assertThat(harness.progress(job).state()).isEqualTo(SendState.COMPLETED);
  }

  @Test
  void pause_stops_sending_resume_finishes_and_nothing_is_sent_twice() throws Exception {
    var job = new SendJob(4, 1, 3, 400);
    harness.sends().start(job, SendHarness.subscribers(600).iterator());
    harness.startWorkers(mail);
    SendHarness.await(Duration.ofSeconds(30), () -> mail.accepted() >= 100);
    harness.sends().pause(4, 1);
    Thread.sleep(600); // in-flight chunks end; cached states expire
    int atPause = mail.accepted();
    Thread.sleep(700);
    assertThat(mail.accepted()).as("nothing more while paused").isEqualTo(atPause);
    assertThat(harness.progress(job).state()).isEqualTo(SendState.PAUSED);
    assertThat(atPause).isLessThan(600);

    harness.sends().resume(4, 1);
    SendHarness.await(
        Duration.ofSeconds(60), () -> harness.progress(job).state().finished());
    assertThat(harness.progress(job).state()).isEqualTo(SendState.COMPLETED);
    assertThat(mail.acceptedFor).hasSize(600);
    assertThat(mail.acceptedFor.values()).allMatch(count -> count.get() == 1);
  }

  @Test
  void cancel_skips_every_unsent_recipient() throws Exception {
    var job = new SendJob(5, 1, 3, 300);
    harness.sends().start(job, SendHarness.subscribers(900).iterator());
    harness.startWorkers(mail);
    SendHarness.await(Duration.ofSeconds(30), () -> mail.accepted() >= 60);
    harness.sends().cancel(5, 1);
    SendHarness.await(Duration.ofSeconds(10), () -> {
      var progress = harness.progress(job);
      return progress.done() == progress.planned();
    });
    Thread.sleep(300); // a window for a send after the cancel to show: nothing to wait for
    SendProgress progress = harness.progress(job);
    assertThat(progress.state()).isEqualTo(SendState.CANCELLED);
    assertThat(progress.sent()).isEqualTo(mail.accepted());
    assertThat(progress.skipped()).isEqualTo(900 - mail.accepted());
  }

  @Test
  void the_shared_rate_holds_the_run_back() throws Exception {
    var job = new SendJob(6, 1, 3, 200);
    harness.sends().start(job, SendHarness.subscribers(400).iterator());
    long began = System.nanoTime();
    harness.startWorkers(mail);
    SendHarness.await(
        Duration.ofSeconds(30), () -> harness.progress(job).state().finished());
    double seconds = (System.nanoTime() - began) / 1e9;
    // 400 at 200/s with a burst of 20: at least (400 - 20) / 200 s
    assertThat(seconds).isGreaterThan(1.8);
    assertThat(mail.accepted()).isEqualTo(400);
  }

  @Test
  void a_triggered_send_goes_out_once_however_often_it_is_triggered() throws Exception {
    var job = new SendJob(7, 1, SendJob.TRIGGERED_PRIORITY, 50);
    harness.startWorkers(mail);
    harness.sends().trigger(job, "welcome-1");
    harness.sends().trigger(job, "welcome-1");
    harness.sends().trigger(job, "welcome-2");
    SendHarness.await(Duration.ofSeconds(20), () -> harness.progress(job).sent() == 2);
    Thread.sleep(300); // a window for a second send of welcome-1 to show: nothing to wait for
    // a trigger whose recipient is still planned queues its task again (its first caller may have
    // died before queueing it); the second task may take over the claim, and the handover lets
    // exactly one of the two through
    assertThat(mail.acceptedFor.get("welcome-1@subscribers.example.test")).hasValue(1);
    assertThat(mail.attempts("welcome-1@subscribers.example.test")).isBetween(1, 2);
    assertThat(harness.progress(job).planned()).isEqualTo(2);
    assertThat(harness.progress(job).state()).isEqualTo(SendState.RUNNING);
  }

  @Test
  void a_message_id_carries_the_run_and_subscriber() {
    var id = new MessageId(8, 1, "s1");
    assertThat(MessageId.parse(id.text())).contains(id);
    assertThat(List.of(id.subscriberId())).containsExactly("s1");
  }

  /** tidings_send_emails_total by outcome, as this worker counted them. */
  private Map<String, Double> outcomes() {
    var counts = new TreeMap<String, Double>();
    for (var counter : harness.metrics.get(SendMetrics.EMAILS).counters())
      counts.put(counter.getId().getTag("outcome"), counter.count());
    return counts;
  }
}
