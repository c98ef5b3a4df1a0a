package dev.tidings.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.config.Settings;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.MessageIds;
import dev.tidings.delivery.webhook.mailgun.MailgunEvents;
import dev.tidings.delivery.webhook.postmark.PostmarkEvents;
import dev.tidings.delivery.webhook.sendgrid.SendGridEvents;
import dev.tidings.delivery.webhook.ses.SesEvents;
import dev.tidings.mail.Address;
import dev.tidings.mail.MimeEmails;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Each provider's correlation header carries the message id the way the provider wants it, and what
 * the provider echoes back from that header (its real event payloads, custom arguments taken from
 * the header's value) maps to a receipt for the same message.
 */
class ProviderHeadersTest {
  private static final String ID = new MessageId(42, 3, "sub-1").text();
  /** Not a message id Tidings writes, but one a header must survive: quotes, a backslash, accents. */
  private static final String AWKWARD = "a\"b\\c\u00e9\u2028d";

  @Test
  void the_provider_is_told_from_the_smtp_host() {
    assertThat(ProviderHeaders.forHost("smtp.sendgrid.net")).isEqualTo(ProviderHeaders.SENDGRID);
    assertThat(ProviderHeaders.forHost("SMTP.SendGrid.NET.")).isEqualTo(ProviderHeaders.SENDGRID);
    assertThat(ProviderHeaders.forHost("smtp.mailgun.org")).isEqualTo(ProviderHeaders.MAILGUN);
    assertThat(ProviderHeaders.forHost("smtp.eu.mailgun.org")).isEqualTo(ProviderHeaders.MAILGUN);
    assertThat(ProviderHeaders.forHost("smtp.postmarkapp.com")).isEqualTo(ProviderHeaders.POSTMARK);
    assertThat(ProviderHeaders.forHost("email-smtp.eu-west-1.amazonaws.com"))
        .isEqualTo(ProviderHeaders.SES);
    assertThat(ProviderHeaders.forHost("email-smtp-fips.us-east-1.amazonaws.com"))
        .isEqualTo(ProviderHeaders.SES);
    for (String other : List.of(
        "127.0.0.1",
        "mail.example.com",
        "smtp.sendgrid.net.example.com",
        "email-smtp.eu-west-1.amazonaws.com.evil.example"))
      assertThat(ProviderHeaders.forHost(other)).as(other).isEqualTo(ProviderHeaders.NONE);
  }

  @Test
  void the_setting_overrides_the_host_and_auto_follows_it() {
    var settings = SmtpSettings.fromUrl(URI.create("smtp://u:p@smtp.sendgrid.net:587"));
    assertThat(settings.provider()).isEqualTo(ProviderHeaders.SENDGRID);
    assertThat(settings.withProvider(Settings.SmtpProvider.AUTO).provider())
        .isEqualTo(ProviderHeaders.SENDGRID);
    assertThat(settings.withProvider(Settings.SmtpProvider.NONE).provider())
        .isEqualTo(ProviderHeaders.NONE);
    var relay = SmtpSettings.fromUrl(URI.create("smtp://relay.internal:25"));
    assertThat(relay.provider()).isEqualTo(ProviderHeaders.NONE);
    assertThat(relay.withProvider(Settings.SmtpProvider.SES).provider())
        .isEqualTo(ProviderHeaders.SES);
    assertThat(relay.withProvider(Settings.SmtpProvider.POSTMARK).provider())
        .isEqualTo(ProviderHeaders.POSTMARK);
    assertThat(relay.withProvider(Settings.SmtpProvider.MAILGUN).provider())
        .isEqualTo(ProviderHeaders.MAILGUN);
  }

  @Test
  void each_provider_gets_its_own_header() {
    assertThat(ProviderHeaders.KEY).isEqualTo(MessageIds.KEY);
    assertThat(ProviderHeaders.SENDGRID.headers(ID))
        .containsExactly(
            Map.entry("X-SMTPAPI", "{\"unique_args\":{\"tidings_message_id\":\"" + ID + "\"}}"));
    assertThat(ProviderHeaders.MAILGUN.headers(ID))
        .containsExactly(
            Map.entry("X-Mailgun-Variables", "{\"tidings_message_id\":\"" + ID + "\"}"));
    assertThat(ProviderHeaders.POSTMARK.headers(ID))
        .containsExactly(Map.entry("X-PM-Metadata-tidings_message_id", ID));
    assertThat(ProviderHeaders.SES.headers(ID))
        .containsExactly(Map.entry("X-SES-MESSAGE-TAGS", "tidings_message_id=" + ID));
    assertThat(ProviderHeaders.NONE.headers(ID)).isEmpty();
  }

  @Test
  void json_values_are_escaped_into_one_ascii_line() {
    for (ProviderHeaders provider : List.of(ProviderHeaders.SENDGRID, ProviderHeaders.MAILGUN)) {
      String value = provider.headers(AWKWARD).values().iterator().next();
      assertThat(value).doesNotContain("\r", "\n", "\u2028").matches("[ -~]+");
      JsonNode parsed = Json.MAPPER.readTree(value);
      JsonNode args = provider == ProviderHeaders.SENDGRID ? parsed.path("unique_args") : parsed;
      assertThat(args.path(MessageIds.KEY).asString()).isEqualTo(AWKWARD);
    }
  }

  @Test
  void a_provider_that_cannot_hold_the_id_gets_no_header() {
    assertThat(ProviderHeaders.SES.headers("has.dots")).isEmpty();
    assertThat(ProviderHeaders.SES.headers("x".repeat(257))).isEmpty();
    assertThat(ProviderHeaders.POSTMARK.headers("x".repeat(81))).isEmpty();
    assertThat(ProviderHeaders.POSTMARK.headers("caf\u00e9")).isEmpty();
  }

  @Test
  void the_header_goes_out_in_the_mime_message_byte_for_byte() throws Exception {
    var email = new OutgoingEmail(
        ID,
        new Address("news@shop.example", Optional.empty()),
        new Address("ada@example.com", Optional.empty()),
        "Hello",
        "Hi",
        Optional.empty(),
        Map.of("List-Id", "news.shop.example"));
    for (ProviderHeaders provider : ProviderHeaders.values()) {
      var mime =
          MimeEmails.toMime(provider.correlated(email), MimeEmails.offlineSession(), Instant.EPOCH);
      assertThat(mime.getHeader("List-Id")).containsExactly("news.shop.example");
      for (var header : provider.headers(ID).entrySet())
        assertThat(mime.getHeader(header.getKey()))
            .as(provider + " " + header.getKey())
            .containsExactly(header.getValue());
    }
    assertThat(ProviderHeaders.NONE.correlated(email)).isSameAs(email);
  }

  @Test
  void sendgrid_echoes_the_unique_args_on_its_events() {
    var unique = Json.MAPPER
        .readTree(ProviderHeaders.SENDGRID.headers(ID).get("X-SMTPAPI"))
        .path("unique_args");
    ArrayNode events =
        (ArrayNode) Fixtures.json("sendgrid/events/docs-delivered.json").deepCopy();
    ((ObjectNode) events.get(0)).setAll((ObjectNode) unique);
    assertThat(only(SendGridEvents.map(events)).messageId()).isEqualTo(ID);
  }

  @Test
  void mailgun_echoes_the_variables_as_user_variables() {
    var variables =
        Json.MAPPER.readTree(ProviderHeaders.MAILGUN.headers(ID).get("X-Mailgun-Variables"));
    ObjectNode event =
        (ObjectNode) Fixtures.json("mailgun/events/docs-event-delivered.json").deepCopy();
    event.set("user-variables", variables);
    assertThat(only(MailgunEvents.map(event)).messageId()).isEqualTo(ID);
  }

  @Test
  void postmark_echoes_the_metadata_header_as_metadata() {
    var header = ProviderHeaders.POSTMARK.headers(ID).entrySet().iterator().next();
    String field = header.getKey().substring("X-PM-Metadata-".length());
    ObjectNode record = (ObjectNode)
        Fixtures.json("postmark/anymail-tests/Delivery-delivered-event.json").deepCopy();
    record.putObject("Metadata").put(field, header.getValue());
    assertThat(only(PostmarkEvents.map(record, Instant.now())).messageId()).isEqualTo(ID);
  }

  @Test
  void ses_echoes_the_message_tags_in_the_mail_tags() {
    String tag = ProviderHeaders.SES.headers(ID).get("X-SES-MESSAGE-TAGS");
    int equals = tag.indexOf('=');
    ObjectNode event = (ObjectNode)
        Fixtures.json("amazon-ses-sns/ses-events/ses-event-Delivery.json").deepCopy();
    ObjectNode mail = (ObjectNode) event.get("mail");
    mail.remove("headers");
    mail.putObject("tags").putArray(tag.substring(0, equals)).add(tag.substring(equals + 1));
    var mapped = new Mapped.Builder();
    SesEvents.map(event, "sns-message-1", mapped);
    assertThat(only(mapped.build()).messageId()).isEqualTo(ID);
  }

  private static Receipt only(Mapped mapped) {
    assertThat(mapped.unmapped()).isEmpty();
    assertThat(mapped.receipts()).hasSize(1);
    return mapped.receipts().getFirst();
  }
}
