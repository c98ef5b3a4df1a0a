package dev.tidings.campaign.send;

import dev.tidings.mail.Handover;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.SendResult;
import dev.tidings.message.MessageId;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Writes and sends one recipient's email and says what the ledger should record: SMTP 4xx is retried
 * here with a doubling backoff, 5xx fails for good, a reply lost after the message data is unknown
 * (never retried: the recipient may have it). Thread-safe.
 */
final class RecipientSender {
  private static final Logger log = LoggerFactory.getLogger(RecipientSender.class);
  private final Composer composer;
  private final MailTransport mail;
  private final SendOptions options;
  private final InstantSource clock;

  RecipientSender(Composer composer, MailTransport mail, SendOptions options, InstantSource clock) {
    this.composer = composer;
    this.mail = mail;
    this.options = options;
    this.clock = clock;
  }

  /**
   * Sends to {@code subscriberId} unless {@code maySend} says no at the moment of sending (the lease
   * is lost or the run paused) or {@code handover} withdraws the email, in which case the recipient
   * is handed back unsent. {@code handover} makes the email's handover, given the note the ledger
   * keeps with it. Every deferral is reported to {@code receipts} as it happens; the final
   * outcome is the caller's to report.
   */
  Ledger.Outcome send(
      SendJob job,
      String subscriberId,
      BooleanSupplier maySend,
      Function<@Nullable String, Handover> handover,
      Consumer<SendReceipt> receipts)
      throws InterruptedException {
    var id = new MessageId(job.campaignId(), job.runId(), subscriberId);
    Composer.Composed composed;
    try {
      composed = composer.compose(job, id);
    } catch (RuntimeException e) {
      throw new ComposeFailedException("composing " + id + " failed: " + e.getMessage(), e);
    }
    return switch (composed) {
      case Composer.Composed.Skip skip ->
        new Ledger.Outcome(subscriberId, Ledger.Mark.skipped, skip.reason());
      case Composer.Composed.Email email -> {
        // on a sender's thread: the partition's fields are not inherited
        try (var campaign = MDC.putCloseable(LogFields.CAMPAIGN, Long.toString(id.campaignId()));
            var run = MDC.putCloseable(LogFields.RUN, Long.toString(id.runId()));
            var message = MDC.putCloseable(LogFields.MESSAGE, id.text())) {
          yield deliver(id, email, maySend, handover.apply(email.handoverNote()), receipts);
        }
      }
    };
  }

  private Ledger.Outcome deliver(
      MessageId id,
      Composer.Composed.Email email,
      BooleanSupplier maySend,
      Handover handover,
      Consumer<SendReceipt> receipts)
      throws InterruptedException {
    String subscriberId = id.subscriberId();
    Duration backoff = options.deferralBackoff();
    for (int deferrals = 0; ; deferrals++) {
      if (!maySend.getAsBoolean()) return new Ledger.Outcome(subscriberId, Ledger.Mark.planned, "");
      SendResult result = mail.send(email.email(), handover);
      switch (result) {
        case SendResult.Accepted accepted -> {
          afterSent(id, email);
          return new Ledger.Outcome(subscriberId, Ledger.Mark.sent, accepted.reply());
        }
        case SendResult.Rejected rejected -> {
          return new Ledger.Outcome(
              subscriberId, Ledger.Mark.failed, rejected.code() + " " + rejected.reply());
        }
        case SendResult.Unknown unknown -> {
          return new Ledger.Outcome(subscriberId, Ledger.Mark.unknown, unknown.reason());
        }
        case SendResult.Withheld withheld -> {
          return new Ledger.Outcome(subscriberId, Ledger.Mark.planned, withheld.reason());
        }
        case SendResult.Deferred deferred -> {
          String reply = deferred.code() + " " + deferred.reply();
          if (deferrals >= options.maxDeferrals()) {
            return new Ledger.Outcome(
                subscriberId,
                Ledger.Mark.failed,
                "deferred " + (deferrals + 1) + " times, last: " + reply);
          }
          receipts.accept(
              new SendReceipt(id.text(), SendReceipt.Status.DEFERRED, clock.instant(), reply));
          Thread.sleep(backoff);
          backoff = backoff.multipliedBy(2);
        }
      }
    }
  }

  private static void afterSent(MessageId id, Composer.Composed.Email email) {
    try {
      email.afterSent().run();
    } catch (RuntimeException e) {
      log.warn("{} was sent, but what follows a send failed: {}", id.text(), e.toString(), e);
    }
  }

  /**
   * Tells the composer that a recipient whose handover left {@code note} was settled as unknown after
   * its worker stopped, so it completes what the email's {@code afterSent} would have done.
   */
  void sentByLostWorker(SendJob job, String subscriberId, String note) {
    var id = new MessageId(job.campaignId(), job.runId(), subscriberId);
    try {
      composer.sentByLostWorker(id, note);
    } catch (RuntimeException e) {
      log.warn(
          "{} may have been sent by a worker that stopped; completing what follows its send failed:"
              + " {}",
          id.text(),
          e.toString(),
          e);
    }
  }

  static SendReceipt receipt(SendJob job, Ledger.Outcome outcome, InstantSource clock) {
    var id = new MessageId(job.campaignId(), job.runId(), outcome.subscriberId());
    var status = switch (outcome.mark()) {
      case sent -> SendReceipt.Status.SENT;
      case failed -> SendReceipt.Status.FAILED;
      case unknown -> SendReceipt.Status.UNKNOWN;
      case skipped, planned -> SendReceipt.Status.SKIPPED;
    };
    return new SendReceipt(id.text(), status, clock.instant(), outcome.reason());
  }

  static List<SendReceipt> receipts(
      SendJob job, List<Ledger.Outcome> outcomes, InstantSource clock) {
    return outcomes.stream()
        .filter(outcome -> outcome.mark() != Ledger.Mark.planned)
        .map(outcome -> receipt(job, outcome, clock))
        .toList();
  }

  /** The composer failed (its data is unreachable, or a bug): the recipient is not at fault. */
  static final class ComposeFailedException extends RuntimeException {
    ComposeFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
