package dev.tidings.delivery.webhook;

import static dev.tidings.fuzz.Refusals.allowOnly;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.InvalidInputException;
import dev.tidings.delivery.webhook.mailgun.MailgunEvents;
import dev.tidings.delivery.webhook.postmark.PostmarkEvents;
import dev.tidings.delivery.webhook.sendgrid.SendGridEvents;
import dev.tidings.delivery.webhook.ses.SesEvents;
import dev.tidings.delivery.webhook.ses.SnsMessage;
import dev.tidings.fuzz.Inputs;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Each provider's webhook body as its route reads it once the request is authenticated (a signature
 * covers the body, so a fuzzer cannot get past it; a provider, a leaked key or a bug on their side can):
 * {@link WebhookJson#parse} and the provider's mapping. A body is mapped or refused with
 * {@link WebhookRefused}; the generic delivery events refuse with InvalidInputException.
 */
class WebhookBodiesFuzzTest {
  private static final Instant RECEIVED = Instant.parse("2026-01-01T00:00:00Z");

  @FuzzTest
  void sendgrid_body(byte[] data) {
    allowOnly(() -> SendGridEvents.map(WebhookJson.parse(data)), WebhookRefused.class);
  }

  /** The SNS envelope, then the SES event inside its Message, as SesWebhook maps a verified notification. */
  @FuzzTest
  void ses_sns_envelope(byte[] data) {
    allowOnly(
        () -> {
          SnsMessage message = SnsMessage.of(WebhookJson.parse(data));
          message.stringToSign();
          Inputs.json(message.message().getBytes(StandardCharsets.UTF_8))
              .filter(event -> event.isObject())
              .ifPresent(event -> SesEvents.map(event, message.messageId(), new Mapped.Builder()));
        },
        WebhookRefused.class);
  }

  /** A bare SES event record (what the envelope's Message holds). */
  @FuzzTest
  void ses_event(byte[] data) {
    Inputs.json(data)
        .filter(event -> event.isObject())
        .ifPresent(event -> allowOnly(
            () -> {
              var mapped = new Mapped.Builder();
              SesEvents.map(event, "sns-message-id", mapped);
              mapped.build();
            },
            WebhookRefused.class));
  }

  @FuzzTest
  void mailgun_body(byte[] data) {
    allowOnly(
        () -> MailgunEvents.map(WebhookJson.parse(data).path("event-data")), WebhookRefused.class);
  }

  @FuzzTest
  void postmark_body(byte[] data) {
    allowOnly(() -> PostmarkEvents.map(WebhookJson.parse(data), RECEIVED), WebhookRefused.class);
  }

  /** POST /api/v1/delivery-events, read by the edge's JSON reader first. */
  @FuzzTest
  void delivery_events(byte[] data) {
    Inputs.json(data)
        .ifPresent(node -> allowOnly(
            () -> DeliveryEvents.parse(node, InstantSource.fixed(RECEIVED)),
            InvalidInputException.class));
  }
}
