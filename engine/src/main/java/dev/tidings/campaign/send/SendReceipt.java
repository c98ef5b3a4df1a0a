package dev.tidings.campaign.send;

import java.time.Instant;
import java.util.Objects;

/**
 * What became of one send attempt, for the delivery capability: {@code messageId} is the text of the
 * email's {@link dev.tidings.message.MessageId} (its {@code X-Tidings-Message-Id}).
 */
public record SendReceipt(String messageId, Status status, Instant timestamp, String reason) {
  public SendReceipt {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(reason, "reason");
  }

  public enum Status {
    /** The SMTP server took the email. */
    SENT,
    /** A temporary refusal (4xx); it will be tried again. */
    DEFERRED,
    /** A permanent refusal, or temporary ones until the retries ran out. */
    FAILED,
    /** The connection ended after the message data went out, or its worker died mid-send. */
    UNKNOWN,
    /** Not sent on purpose: suppressed, unsubscribed, no consent, or the run was cancelled. */
    SKIPPED,
    /** The recipient unsubscribed with the email's own one-click link. */
    UNSUBSCRIBED
  }
}
