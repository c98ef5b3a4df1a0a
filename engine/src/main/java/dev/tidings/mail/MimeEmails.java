package dev.tidings.mail;

import jakarta.activation.DataHandler;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.internet.MimeUtility;
import jakarta.mail.internet.PreencodedMimeBodyPart;
import jakarta.mail.util.ByteArrayDataSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
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
      if (email.replyTo().isPresent())
        message.setReplyTo(
            new InternetAddress[] {internetAddress(email.replyTo().get())});
      message.setSubject(email.subject(), UTF_8);
      message.setSentDate(Date.from(date));
      message.setHeader(OutgoingEmail.TIDINGS_MESSAGE_ID, email.messageId());
      for (var header : email.headers().entrySet()) {
        message.setHeader(header.getKey(), headerValue(header.getValue()));
      }
      if (email.html().isPresent()) {
        var alternative = new MimeMultipart("alternative");
        alternative.addBodyPart(encodedText(email.text(), "plain"));
        alternative.addBodyPart(encodedText(email.html().get(), "html"));
        message.setContent(alternative);
      } else {
        message.setText(email.text(), UTF_8, "plain");
      }
      message.saveChanges();
      return message;
    } catch (MessagingException | UnsupportedEncodingException e) {
      // Every input was validated by OutgoingEmail; a failure here is a bug,
      // not a delivery problem.
      throw new IllegalStateException("cannot build MIME message " + email.messageId(), e);
    }
  }

  /**
   * A text part encoded once, here, and written out as bytes. Left to Jakarta Mail, a part's text is
   * scanned byte by byte to choose its encoding and then encoded byte by byte on every write, which was
   * most of a sending worker's CPU. ASCII with lines SMTP can carry goes as it is (7bit); anything
   * else as quoted-printable, which keeps the HTML readable to filters and people.
   */
  private static MimeBodyPart encodedText(String content, String subtype)
      throws MessagingException {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    boolean sevenBit = isSevenBitWithShortLines(bytes);
    var part = new PreencodedMimeBodyPart(sevenBit ? "7bit" : "quoted-printable");
    part.setDataHandler(new DataHandler(new ByteArrayDataSource(
        sevenBit ? bytes : quotedPrintable(bytes), "text/" + subtype + "; charset=UTF-8")));
    return part;
  }

  /** RFC 5322 allows 998 characters a line; a bare CR is not a line end SMTP would keep. */
  private static boolean isSevenBitWithShortLines(byte[] bytes) {
    int lineLength = 0;
    for (int i = 0; i < bytes.length; i++) {
      byte b = bytes[i];
      if (b < 0 || b == 0) return false;
      if (b == '\n') {
        lineLength = 0;
      } else if (b == '\r') {
        if (i + 1 >= bytes.length || bytes[i + 1] != '\n') return false;
      } else if (++lineLength > 998) {
        return false;
      }
    }
    return true;
  }

  private static byte[] quotedPrintable(byte[] bytes) throws MessagingException {
    var encoded = new ByteArrayOutputStream(bytes.length + bytes.length / 8);
    try (OutputStream out = MimeUtility.encode(encoded, "quoted-printable")) {
      out.write(bytes);
    } catch (IOException e) {
      throw new MessagingException("cannot encode a text part", e);
    }
    return encoded.toByteArray();
  }

  /**
   * The SMTP envelope's one recipient: exactly the parsed address of {@code to}, never the recipients read
   * back from the headers.
   */
  public static InternetAddress[] envelopeRecipients(OutgoingEmail email) {
    var recipient = new InternetAddress();
    recipient.setAddress(email.to().email());
    return new InternetAddress[] {recipient};
  }

  /** A mailbox as a person reads it in a header (the name decoded), for previews. */
  public static String display(Address address) {
    try {
      return internetAddress(address).toUnicodeString();
    } catch (UnsupportedEncodingException e) {
      throw new IllegalStateException("UTF-8 is always supported", e);
    }
  }

  /**
   * The address as the mail library's mailbox, the name set as its "personal" part, which the library
   * quotes (ASCII) or encodes as an RFC 2047 word (UTF-8): never text put together here.
   */
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
