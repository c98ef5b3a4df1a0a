package dev.tidings.mail;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Text parts encoded by Tidings come back from a MIME parser exactly as they went in. */
class MimeEmailsTest {
  private static final Address FROM = Address.of("news@shop.example", "Shop");
  private static final Address TO = Address.of("ann@example.com", "Änne");

  private static MimeMessage roundTrip(OutgoingEmail email) throws Exception {
    var session = MimeEmails.offlineSession();
    var written = new ByteArrayOutputStream();
    MimeEmails.toMime(email, session, Instant.parse("2026-03-14T09:00:00Z")).writeTo(written);
    return new MimeMessage(session, new ByteArrayInputStream(written.toByteArray()));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "plain ascii\r\non two lines",
        "Grüße, Änne — 10 € off ✓",
        "a=b and =3D and trailing space \nnext line\twith tab ",
        "LONG",
        "line ending in a dot\n.\nand a lone dot line"
      })
  void html_and_text_parts_survive_encoding_exactly(String given) throws Exception {
    String content = given.equals("LONG") ? "<p>" + "x".repeat(2_500) + "</p>" : given;
    var email = new OutgoingEmail(
        "m-1", FROM, TO, "Hello", content, Optional.of("<p>" + content + "</p>"), Map.of());

    MimeMessage parsed = roundTrip(email);

    var parts = (Multipart) parsed.getContent();
    BodyPart text = parts.getBodyPart(0);
    BodyPart html = parts.getBodyPart(1);
    assertThat(text.getContentType()).startsWith("text/plain").containsIgnoringCase("utf-8");
    assertThat(html.getContentType()).startsWith("text/html").containsIgnoringCase("utf-8");
    assertThat(normalised((String) text.getContent())).isEqualTo(normalised(content));
    assertThat(normalised((String) html.getContent()))
        .isEqualTo(normalised("<p>" + content + "</p>"));
    boolean sevenBit = content.chars().allMatch(c -> c < 0x80) && content.length() < 998;
    assertThat(html.getHeader("Content-Transfer-Encoding"))
        .containsExactly(sevenBit ? "7bit" : "quoted-printable");
  }

  @Test
  void
      a_display_name_with_quotes_commas_angle_brackets_and_non_ascii_is_one_header_with_one_address()
          throws Exception {
    String name = "Zoë \"The Boss\" O'Brien, <victim@evil.example>; x@evil.example";
    var email = new OutgoingEmail(
        "m-names",
        Address.of("news@shop.example", "Shop, \"Best\" <deals@evil.example>"),
        Address.of("ann@example.com", name),
        "Hello",
        "text",
        Optional.empty(),
        Map.of(),
        Optional.of(Address.of("care@shop.example", "Care <v@evil.example>, Ünï")));

    MimeMessage parsed = roundTrip(email);

    for (String header : new String[] {"To", "From", "Reply-To"}) {
      assertThat(parsed.getHeader(header)).as(header).hasSize(1);
      // strict parsing of the header as written: exactly one mailbox
      assertThat(InternetAddress.parseHeader(parsed.getHeader(header)[0], true))
          .as(header)
          .hasSize(1);
    }
    var to = (InternetAddress) parsed.getRecipients(MimeMessage.RecipientType.TO)[0];
    assertThat(parsed.getAllRecipients()).hasSize(1);
    assertThat(to.getAddress()).isEqualTo("ann@example.com");
    assertThat(to.getPersonal()).isEqualTo(name);
    var from = (InternetAddress) parsed.getFrom()[0];
    assertThat(from.getAddress()).isEqualTo("news@shop.example");
    assertThat(from.getPersonal()).isEqualTo("Shop, \"Best\" <deals@evil.example>");
    var replyTo = (InternetAddress) parsed.getReplyTo()[0];
    assertThat(parsed.getReplyTo()).hasSize(1);
    assertThat(replyTo.getAddress()).isEqualTo("care@shop.example");
    assertThat(replyTo.getPersonal()).isEqualTo("Care <v@evil.example>, Ünï");
    assertThat(MimeEmails.envelopeRecipients(email))
        .extracting(InternetAddress::getAddress)
        .containsExactly("ann@example.com");
  }

  /** Line ends are the wire's business: CRLF on the way out, whatever went in. */
  private static String normalised(String text) {
    return text.replace("\r\n", "\n");
  }
}
