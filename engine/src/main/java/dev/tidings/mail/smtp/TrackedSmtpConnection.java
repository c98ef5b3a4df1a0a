package dev.tidings.mail.smtp;

import dev.tidings.mail.Handover;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.URLName;
import java.io.IOException;
import org.eclipse.angus.mail.smtp.SMTPTransport;

/**
 * An Angus SMTP connection that asks the sender's {@link Handover} before the end of the message data
 * and remembers whether it went out. Once it has, a lost connection means the server may have the
 * message, so the send is Unknown, not Deferred; a message withheld at the handover never got its
 * end, so the server discards it when the connection closes.
 */
final class TrackedSmtpConnection extends SMTPTransport {
  private volatile boolean endOfDataSent;
  private volatile boolean withheld;
  private volatile Handover handover = Handover.UNCONDITIONAL;
  private volatile long lastUsedNanos = System.nanoTime();

  TrackedSmtpConnection(Session session, boolean implicitTls) {
    super(
        session,
        new URLName(implicitTls ? "smtps" : "smtp", null, -1, null, null, null),
        implicitTls ? "smtps" : "smtp",
        implicitTls);
  }

  void beginMessage(Handover handover) {
    this.handover = handover;
    endOfDataSent = false;
    withheld = false;
  }

  /** Whether the sender withdrew the last message at its handover. */
  boolean withheld() {
    return withheld;
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
    if (!handover.proceed()) {
      withheld = true;
      throw new MessagingException("the sender withdrew the message before the end of its data");
    }
    endOfDataSent = true;
    super.finishData();
  }
}
