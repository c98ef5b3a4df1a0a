package dev.tidings.campaign.send;

import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;

/**
 * Writes the email of one message, at send time (the subscriber's data as it is then). The campaign
 * capability implements it; a worker calls it for each recipient it has claimed. Thread-safe.
 */
public interface Composer {

  Composed compose(SendJob job, MessageId message);

  /** An email to send, or the reason this recipient gets none (suppressed, unsubscribed, no consent). */
  sealed interface Composed {
    /**
     * @param afterSent runs once the transport has accepted the email (a digest marks what it told
     *     as sent); a failure there is logged, the email stays sent
     */
    record Email(OutgoingEmail email, Runnable afterSent) implements Composed {
      public Email(OutgoingEmail email) {
        this(email, () -> {});
      }
    }

    record Skip(String reason) implements Composed {}
  }
}
