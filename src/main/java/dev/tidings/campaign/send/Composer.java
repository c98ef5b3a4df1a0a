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
    record Email(OutgoingEmail email) implements Composed {}

    record Skip(String reason) implements Composed {}
  }
}
