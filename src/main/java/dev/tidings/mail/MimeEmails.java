package dev.tidings.mail;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.internet.MimeUtility;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.Locale;
import java.util.Properties;

/**
 * Turns an {@link OutgoingEmail} into a real MIME message, the one shape both the outbox files and
 * the SMTP wire carry: UTF-8 text (and HTML as multipart/alternative), our own Message-ID, the
 * Tidings id header and the extra headers exactly as given.
 */
public final class MimeEmails {
  private static final String UTF_8 = StandardCharsets.UTF_8.name();

  /**
   * Jakarta Mail looks up its stream provider for every MIME part it builds, and unless this
   * property names it, by scanning the class path with a ServiceLoader: a fifth of a sending worker's
   * CPU in a profile. Naming Angus's provider turns that into a class lookup.
   */
  private static final String STREAM_PROVIDER = "jakarta.mail.util.StreamProvider";

  static {
    if (System.getProperty(STREAM_PROVIDER) == null)
      System.setProperty(STREAM_PROVIDER, "org.eclipse.angus.mail.util.MailStreamProvider");
  }

  private MimeEmails() {}

  /** A session for building and parsing messages only; it never connects anywhere. */
  public static Session offlineSession() {
    return Session.getInstance(new Properties());
  }

  /** {@code <messageId@domain-of-from>}: stable across retries, so receivers can spot a resend. */
  public static String messageIdHeader(OutgoingEmail email) {
    String from = email.from().email();
    String domain = from.substring(from.indexOf('@') + 1).toLowerCase(Locale.ROOT);
    return "<" + email.messageId() + "@" + domain + ">";
  }

  /** The finished message, headers already final ({@code saveChanges} has run). */
  public static MimeMessage toMime(OutgoingEmail email, Session session, Instant date) {
    try {
      var message = new FixedIdMimeMessage(session, messageIdHeader(email));
      message.setFrom(internetAddress(email.from()));
      message.setRecipient(MimeMessage.RecipientType.TO, internetAddress(email.to()));
      message.setSubject(email.subject(), UTF_8);
      message.setSentDate(Date.from(date));
      message.setHeader(OutgoingEmail.TIDINGS_MESSAGE_ID, email.messageId());
      for (var header : email.headers().entrySet()) {
        message.setHeader(header.getKey(), headerValue(header.getValue()));
      }
      if (email.html().isPresent()) {
        var text = new MimeBodyPart();
        text.setText(email.text(), UTF_8, "plain");
        var html = new MimeBodyPart();
        html.setText(email.html().get(), UTF_8, "html");
        var alternative = new MimeMultipart("alternative");
        alternative.addBodyPart(text);
        alternative.addBodyPart(html);
        message.setContent(alternative);
      } else {
        message.setText(email.text(), UTF_8, "plain");
      }
      message.saveChanges();
      return message;
    } catch (MessagingException | UnsupportedEncodingException e) {
      // Every input was validated by OutgoingEmail; a failure here is a bug, not a delivery
      // problem.
      throw new IllegalStateException("cannot build MIME message " + email.messageId(), e);
    }
  }

  static InternetAddress internetAddress(Address address) throws UnsupportedEncodingException {
    return address.name().isPresent()
        ? new InternetAddress(address.email(), address.name().get(), UTF_8)
        : new InternetAddress(address.email(), null, UTF_8);
  }

  /** ASCII values go out byte for byte (a DKIM signature covers them); others need RFC 2047 words. */
  private static String headerValue(String value) throws UnsupportedEncodingException {
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) > 0x7e) return MimeUtility.encodeText(value, UTF_8, "Q");
    }
    return value;
  }

  /** Jakarta Mail replaces Message-ID with a random one on every save; ours must survive. */
  private static final class FixedIdMimeMessage extends MimeMessage {
    private final String messageId;

    FixedIdMimeMessage(Session session, String messageId) {
      super(session);
      this.messageId = messageId;
    }

    @Override
    protected void updateMessageID() throws MessagingException {
      setHeader("Message-ID", messageId);
    }
  }
}
