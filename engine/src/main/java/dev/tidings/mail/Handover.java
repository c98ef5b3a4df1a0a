package dev.tidings.mail;

/**
 * The sender's last word on an email, asked by the transport just before the point after which the
 * email may have been delivered (the end of the SMTP message data, the rename into the outbox). Up to
 * there, an email that is not handed over can be withdrawn and nobody receives it; the campaign ledger
 * records the handover durably here, so a worker that dies before it leaves a recipient safe to send
 * again, and one that dies after it leaves a recipient who may have the email.
 */
@FunctionalInterface
public interface Handover {
  /** For senders that keep no record of their own. */
  Handover UNCONDITIONAL = () -> true;

  /**
   * True to let the email go; false withdraws it ({@link SendResult.Withheld}). May block, and may be
   * asked again for the same email when an earlier attempt ended in a temporary refusal.
   */
  boolean proceed();

  /**
   * Said by a transport when it takes the email to send (before it waits for a connection), so a
   * handover that costs a durable write can start it there and overlap it with the wait and the
   * transfer; {@link #proceed()} still decides and is asked all the same. Must not block or throw;
   * may be said again for the same email on a later attempt.
   */
  default void begin() {}
}
