package dev.tidings.mail.smtp;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.URLName;
import java.io.IOException;
import org.eclipse.angus.mail.smtp.SMTPTransport;

/**
 * An Angus SMTP connection that remembers whether the end of the message data went out. Once it has,
 * a lost connection means the server may have the message, so the send is Unknown, not Deferred.
 */
final class TrackedSmtpConnection extends SMTPTransport {
  private volatile boolean endOfDataSent;
  private volatile long lastUsedNanos = System.nanoTime();

  TrackedSmtpConnection(Session session, boolean implicitTls) {
    super(
        session,
        new URLName(implicitTls ? "smtps" : "smtp", null, -1, null, null, null),
        implicitTls ? "smtps" : "smtp",
        implicitTls);
  }

  void beginMessage() {
    endOfDataSent = false;
  }

  boolean endOfDataSent() {
    return endOfDataSent;
  }

  void markUsed() {
    lastUsedNanos = System.nanoTime();
  }

  long idleNanos() {
    return System.nanoTime() - lastUsedNanos;
  }

  @Override
  protected void finishData() throws IOException, MessagingException {
    endOfDataSent = true;
    super.finishData();
  }
}
