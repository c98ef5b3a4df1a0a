package dev.tidings.faults;

import dev.tidings.testing.RecordingSmtpServer;
import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What reached the SMTP server as it arrives: each accepted message once per copy, in order, with its
 * recipient, its {@code X-Tidings-Message-Id} and the paths of its open-time slot images.
 */
final class MailWatch {
  private static final Pattern SLOT_IMAGE = Pattern.compile("(/o/[A-Za-z0-9_-]+/\\d+)");
  private static final Session SESSION = Session.getInstance(new Properties());

  private final RecordingSmtpServer smtp;
  private final List<SentEmail> emails = new ArrayList<>();

  MailWatch(RecordingSmtpServer smtp) {
    this.smtp = smtp;
  }

  /** The emails accepted since the last call. */
  synchronized List<SentEmail> newEmails() throws IOException {
    List<RecordingSmtpServer.Received> received = smtp.received();
    List<SentEmail> fresh = new ArrayList<>();
    for (var message : received.subList(emails.size(), received.size())) {
      SentEmail email = parse(message);
      fresh.add(email);
      emails.add(email);
    }
    return fresh;
  }

  synchronized List<SentEmail> all() throws IOException {
    newEmails();
    return List.copyOf(emails);
  }

  int count() {
    return smtp.count();
  }

  /** When the message after the first {@code count} arrived. */
  long receivedAt(int count) {
    return smtp.received().get(count).receivedAtNanos();
  }

  private static SentEmail parse(RecordingSmtpServer.Received received) throws IOException {
    String to = received.recipients().isEmpty() ? "" : received.recipients().getFirst();
    List<String> slots = new ArrayList<>();
    try {
      var message = new MimeMessage(SESSION, new ByteArrayInputStream(received.data()));
      Matcher matcher = SLOT_IMAGE.matcher(html(message));
      while (matcher.find()) if (!slots.contains(matcher.group(1))) slots.add(matcher.group(1));
    } catch (MessagingException e) {
      throw new IOException("an unreadable email reached the SMTP server", e);
    }
    return new SentEmail(to, received.header("X-Tidings-Message-Id"), List.copyOf(slots));
  }

  private static String html(Part part) throws MessagingException, IOException {
    if (part.isMimeType("text/html")) return part.getContent().toString();
    if (part.getContent() instanceof Multipart multipart) {
      var out = new StringBuilder();
      for (int i = 0; i < multipart.getCount(); i++) {
        BodyPart body = multipart.getBodyPart(i);
        out.append(html(body));
      }
      return out.toString();
    }
    return "";
  }
}
