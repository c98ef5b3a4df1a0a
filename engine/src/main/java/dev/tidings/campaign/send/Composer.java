package dev.tidings.campaign.send;

import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import org.jspecify.annotations.Nullable;

/**
 * Writes the email of one message, at send time (the subscriber's data as it is then). The campaign
 * capability implements it; a worker calls it for each recipient it has claimed. Thread-safe.
 */
public interface Composer {

  Composed compose(SendJob job, MessageId message);

  /**
   * The worker that handed {@code message}'s email to the transport stopped before it could run its
   * {@link Composed.Email#afterSent()}, and the recipient was settled as unknown: they may have the
   * email. {@code note} is the email's {@link Composed.Email#handoverNote()}, kept by the ledger with
   * the handover; what it asks for must be done as if the email was sent (it may have run already:
   * doing it twice must change nothing). Failures are logged by the caller.
   */
  default void sentByLostWorker(MessageId message, String note) {}

  /** An email to send, or the reason this recipient gets none (suppressed, unsubscribed, no consent). */
  sealed interface Composed {
    /**
     * @param afterSent runs once the transport has accepted the email (a digest marks what it told
     *     as sent); a failure there is logged, the email stays sent
     * @param handoverNote what the ledger keeps with the handover, for {@link
     *     Composer#sentByLostWorker} to complete what {@code afterSent} would have done when the
     *     worker stops in between; null when there is nothing to complete
     */
    record Email(
        OutgoingEmail email, Runnable afterSent, @Nullable String handoverNote)
        implements Composed {
      public Email(OutgoingEmail email) {
        this(email, () -> {}, null);
      }

      public Email(OutgoingEmail email, Runnable afterSent) {
        this(email, afterSent, null);
      }
    }

    record Skip(String reason) implements Composed {}
  }
}
