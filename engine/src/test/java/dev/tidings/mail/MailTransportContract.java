package dev.tidings.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link MailTransport} must do, checked by reading back what it delivered: the outbox's
 * files, or what a real SMTP server received.
 */
public abstract class MailTransportContract {
  protected static final Instant NOW = Instant.parse("2026-03-14T09:26:53Z");
  protected static final InstantSource CLOCK = InstantSource.fixed(NOW);
  private static final Duration BOUND = Duration.ofSeconds(60);

  protected MailTransport transport;

  /** A transport delivering to a fresh, empty destination. */
  protected abstract MailTransport newTransport(InstantSource clock) throws Exception;

  /** Everything delivered so far, waiting (bounded) until at least {@code expected} have arrived. */
  protected abstract List<MimeMessage> delivered(int expected) throws Exception;

  @BeforeEach
  void openTransport() throws Exception {
    transport = newTransport(CLOCK);
  }

  @AfterEach
  void closeTransport() {
    if (transport != null) transport.close();
  }

  protected static OutgoingEmail email(String messageId) {
    return new OutgoingEmail(
        messageId,
        Address.of("news@shop.example", "Bücherstube Łódź"),
        Address.of("zoe@example.org", "Zoë Ångström 山田"),
        "Neu für dich: Übergrößen & 寿司 – 50 % 🎉",
        "Hallo Zoë,\nneue Stücke für dich: Schuhe, Mäntel, 寿司.\n",
        Optional.of("<p>Hallo <b>Zoë</b>, neue St&uuml;cke: 寿司 🎉</p>"),
        Map.of(
            "List-Unsubscribe",
            "<https://shop.example/u/tok-" + messageId + ">",
            "List-Unsubscribe-Post",
            "List-Unsubscribe=One-Click"));
  }

  @Test
  void accepts_and_reports_the_tidings_message_id() {
    assertThat(transport.send(email("msg-1")))
        .isInstanceOfSatisfying(
            SendResult.Accepted.class,
            accepted -> assertThat(accepted.messageId()).isEqualTo("msg-1"));
  }

  @Test
  void subject_and_non_ascii_display_names_round_trip() throws Exception {
    transport.send(email("msg-names"));

    MimeMessage received = only(delivered(1));
    assertThat(received.getSubject()).isEqualTo("Neu für dich: Übergrößen & 寿司 – 50 % 🎉");
    var from = (InternetAddress) received.getFrom()[0];
    assertThat(from.getAddress()).isEqualTo("news@shop.example");
    assertThat(from.getPersonal()).isEqualTo("Bücherstube Łódź");
    var to = (InternetAddress) received.getRecipients(MimeMessage.RecipientType.TO)[0];
    assertThat(to.getPersonal()).isEqualTo("Zoë Ångström 山田");
    assertThat(received.getSentDate().toInstant()).isEqualTo(NOW.truncatedTo(ChronoUnit.SECONDS));
  }

  @Test
  void text_and_html_arrive_as_utf8_multipart_alternative() throws Exception {
    transport.send(email("msg-parts"));

    MimeMessage received = only(delivered(1));
    assertThat(received.getContentType()).startsWith("multipart/alternative");
    var parts = (Multipart) received.getContent();
    assertThat(parts.getCount()).isEqualTo(2);
    BodyPart text = parts.getBodyPart(0);
    BodyPart html = parts.getBodyPart(1);
    assertThat(text.getContentType())
        .startsWith("text/plain")
        .containsIgnoringCase("charset=utf-8");
    assertThat(html.getContentType()).startsWith("text/html").containsIgnoringCase("charset=utf-8");
    assertThat(lines(text.getContent()))
        .isEqualTo("Hallo Zoë,\nneue Stücke für dich: Schuhe, Mäntel, 寿司.\n");
    assertThat(lines(html.getContent()))
        .isEqualTo("<p>Hallo <b>Zoë</b>, neue St&uuml;cke: 寿司 🎉</p>");
  }

  @Test
  void text_only_email_is_one_utf8_text_part() throws Exception {
    var plain = new OutgoingEmail(
        "msg-plain",
        Address.of("a@shop.example"),
        Address.of("b@example.com"),
        "plain",
        "Grüße\n",
        Optional.empty(),
        Map.of());
    transport.send(plain);

    MimeMessage received = only(delivered(1));
    assertThat(received.getContentType())
        .startsWith("text/plain")
        .containsIgnoringCase("charset=utf-8");
    assertThat(lines(received.getContent())).isEqualTo("Grüße\n");
  }

  @Test
  void tidings_id_message_id_and_extra_headers_round_trip_unchanged() throws Exception {
    transport.send(email("msg-headers.42"));

    MimeMessage received = only(delivered(1));
    assertThat(received.getHeader(OutgoingEmail.TIDINGS_MESSAGE_ID))
        .containsExactly("msg-headers.42");
    assertThat(received.getMessageID()).isEqualTo("<msg-headers.42@shop.example>");
    assertThat(received.getHeader("List-Unsubscribe"))
        .containsExactly("<https://shop.example/u/tok-msg-headers.42>");
    assertThat(received.getHeader("List-Unsubscribe-Post"))
        .containsExactly("List-Unsubscribe=One-Click");
    // Folding would break a DKIM signature over the header (nodemailer#1654):
    // one physical line each.
    var raw = new ByteArrayOutputStream();
    received.writeTo(raw);
    assertThat(raw.toString(StandardCharsets.US_ASCII))
        .contains("\r\nList-Unsubscribe: <https://shop.example/u/tok-msg-headers.42>\r\n");
  }

  @Test
  void two_hundred_concurrent_sends_from_virtual_threads_each_arrive_exactly_once() {
    int count = 200;
    List<SendResult> results = assertTimeoutPreemptively(BOUND, () -> {
      try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
        var futures = new ArrayList<Future<SendResult>>();
        for (int i = 0; i < count; i++) {
          String id = "bulk-" + i;
          futures.add(executor.submit(() -> transport.send(email(id))));
        }
        var done = new ArrayList<SendResult>();
        for (var future : futures) done.add(future.get());
        return done;
      }
    });
    assertThat(results)
        .allSatisfy(result -> assertThat(result).isInstanceOf(SendResult.Accepted.class));

    List<MimeMessage> received = assertTimeoutPreemptively(BOUND, () -> delivered(count));
    var ids = new ArrayList<String>();
    for (var message : received) {
      try {
        ids.add(message.getHeader(OutgoingEmail.TIDINGS_MESSAGE_ID)[0]);
      } catch (MessagingException e) {
        throw new AssertionError(e);
      }
    }
    assertThat(ids).hasSize(count).doesNotHaveDuplicates();
    var expected = new HashSet<String>();
    for (int i = 0; i < count; i++) expected.add("bulk-" + i);
    assertThat(new HashSet<>(ids)).isEqualTo(expected);
  }

  @Test
  void reports_no_problem_when_ready() {
    assertThat(assertTimeoutPreemptively(BOUND, () -> transport.problem())).isEmpty();
  }

  @Test
  void describe_names_the_destination() {
    assertThat(transport.describe()).isNotBlank();
  }

  /** Text travels with CRLF line ends (RFC 5322); compare content, not the platform's line end. */
  private static String lines(Object content) {
    return ((String) content).replace("\r\n", "\n");
  }

  private static MimeMessage only(List<MimeMessage> messages) {
    assertThat(messages).hasSize(1);
    return messages.getFirst();
  }
}
