package dev.tidings.delivery.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptLimits;
import dev.tidings.delivery.webhook.mailgun.MailgunEvents;
import dev.tidings.delivery.webhook.mailgun.MailgunRequests;
import dev.tidings.delivery.webhook.postmark.PostmarkEvents;
import dev.tidings.delivery.webhook.sendgrid.SendGridEvents;
import dev.tidings.delivery.webhook.ses.SesEvents;
import dev.tidings.delivery.webhook.ses.SnsFixtures;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A signed event's free text (a bounce's reason, a client's user agent) is the provider's and, through it,
 * a receiving mail server's: a NUL or a line break in it is cleaned out and an over-long one cut, and the
 * status still applies. Before, such an event was set aside whole and its address never suppressed.
 */
class FreeTextOfWebhookEventsTest {
  private static final String DIRTY = "550 mailbox gone\u0000\r\nX-Forged: yes\u0007\u001b[2J";

  /** One provider's bounce with {@code reason} where that provider puts the bounce's text. */
  private record Provider(String name, Function<String, Mapped> bounceSaying) {}

  private static final List<Provider> PROVIDERS = List.of(
      new Provider("sendgrid", reason -> {
        var event = Fixtures.withMessageId(
            Fixtures.json("sendgrid/events/docs-bounce-type-bounce.json").get(0), "", "m-sg");
        event.put("reason", reason);
        return SendGridEvents.map(Json.MAPPER.createArrayNode().add(event));
      }),
      new Provider("mailgun", reason -> {
        var event = (ObjectNode) MailgunRequests.event("docs-event-failed-permanent.json", "m-mg");
        ((ObjectNode) event.get("delivery-status")).put("description", reason);
        return MailgunEvents.map(event);
      }),
      new Provider("postmark", reason -> {
        var record = Fixtures.withMessageId(
            Fixtures.json("postmark/anymail-tests/Bounce-bounce-event.json"), "Metadata", "m-pm");
        record.put("Description", reason);
        return PostmarkEvents.map(record, Instant.now());
      }),
      new Provider("ses", reason -> {
        var event = SnsFixtures.sesEvent("ses-event-Bounce.json", "m-ses");
        ((ObjectNode) event.path("bounce").path("bouncedRecipients").get(0))
            .put("diagnosticCode", reason);
        var mapped = new Mapped.Builder();
        SesEvents.map(event, "sns-1", mapped);
        return mapped.build();
      }));

  @Test
  void a_bounce_whose_reason_holds_nul_and_control_characters_is_applied_with_the_text_cleaned() {
    for (Provider provider : PROVIDERS) {
      Mapped mapped = provider.bounceSaying().apply(DIRTY);
      assertThat(mapped.unmapped()).as(provider.name()).isEmpty();
      assertThat(mapped.receipts()).as(provider.name()).singleElement().satisfies(receipt -> {
        assertThat(receipt.status()).isEqualTo(DeliveryStatus.BOUNCED);
        assertThat(receipt.reason()).hasValueSatisfying(reason -> {
          assertThat(reason).contains("550 mailbox gone X-Forged: yes");
          assertThat(reason.chars()).noneMatch(Character::isISOControl);
        });
        assertThat(ReceiptLimits.problem(receipt, Instant.now())).isEmpty();
      });
    }
  }

  @Test
  void an_over_long_reason_is_cut_and_the_bounce_still_applied() {
    String essay = "550 " + "no such mailbox, ".repeat(1_000);
    for (Provider provider : PROVIDERS) {
      Mapped mapped = provider.bounceSaying().apply(essay);
      assertThat(mapped.unmapped()).as(provider.name()).isEmpty();
      Receipt receipt = mapped.receipts().getFirst();
      assertThat(receipt.status()).as(provider.name()).isEqualTo(DeliveryStatus.BOUNCED);
      assertThat(receipt.reason().orElseThrow())
          .as(provider.name())
          .hasSizeLessThanOrEqualTo(ReceiptLimits.MAX_TEXT_LENGTH)
          .contains("550 no such mailbox");
    }
  }

  @Test
  void a_clicks_user_agent_is_cleaned_the_same_way() {
    var click = Fixtures.withMessageId(
        Fixtures.json("postmark/anymail-tests/Click-click-event.json"), "Metadata", "m-click");
    click.put("UserAgent", "Mozilla/5.0\u0000\nInjected");
    Mapped mapped = PostmarkEvents.map(click, Instant.now());
    assertThat(mapped.unmapped()).isEmpty();
    assertThat(mapped.receipts().getFirst().userAgent()).hasValue("Mozilla/5.0 Injected");
  }
}
