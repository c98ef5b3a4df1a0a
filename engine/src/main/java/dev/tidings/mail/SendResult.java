package dev.tidings.mail;

/**
 * The outcome of one send. The distinction matters to the campaign ledger: a {@link Deferred} is
 * retried with backoff, a {@link Rejected} is final, and an {@link Unknown} (the connection died after
 * the message data was sent) must not be retried blindly, since the recipient may already have it.
 */
public sealed interface SendResult {
  /** The server took responsibility for the message. */
  record Accepted(String messageId, String reply) implements SendResult {}

  /** A temporary refusal (SMTP 4xx, or no connection before any data was sent): safe to retry. */
  record Deferred(int code, String reply) implements SendResult {}

  /** A permanent refusal (SMTP 5xx): do not retry. */
  record Rejected(int code, String reply) implements SendResult {}

  /** It cannot be known whether the message was taken. */
  record Unknown(String reason) implements SendResult {}

  /** The sender withdrew the email at its {@link Handover}: nothing was delivered. */
  record Withheld(String reason) implements SendResult {}
}
