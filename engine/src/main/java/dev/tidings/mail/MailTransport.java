package dev.tidings.mail;

import java.util.Optional;

/**
 * Hands finished emails to whatever delivers them: {@code .eml} files in an outbox directory for the
 * embedded default, an SMTP server in production. Thread-safe.
 */
public interface MailTransport extends AutoCloseable {

  /**
   * Sends one email, asking {@code handover} just before the point after which it may have been
   * delivered; never throws for a delivery problem, the outcome says what happened.
   */
  SendResult send(OutgoingEmail email, Handover handover);

  /** Sends one email with no handover to ask. */
  default SendResult send(OutgoingEmail email) {
    return send(email, Handover.UNCONDITIONAL);
  }

  /** Where mail goes, for logs and /health (no credentials). */
  String describe();

  /** Empty when the transport can take mail now, else why not. */
  Optional<String> problem();

  @Override
  void close();
}
