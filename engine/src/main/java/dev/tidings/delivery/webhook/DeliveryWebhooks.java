package dev.tidings.delivery.webhook;

import dev.tidings.config.WebhookSettings;
import dev.tidings.delivery.webhook.mailgun.MailgunWebhook;
import dev.tidings.delivery.webhook.postmark.PostmarkWebhook;
import dev.tidings.delivery.webhook.sendgrid.SendGridWebhook;
import dev.tidings.delivery.webhook.ses.FetchedSigningKeys;
import dev.tidings.delivery.webhook.ses.FileSigningKeys;
import dev.tidings.delivery.webhook.ses.HttpSubscriptionConfirmer;
import dev.tidings.delivery.webhook.ses.SesWebhook;
import dev.tidings.delivery.webhook.ses.SigningKeys;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Optional;
import java.util.function.Supplier;

/** The providers' webhooks this node verifies: one per provider whose settings are present. */
public record DeliveryWebhooks(
    Optional<SendGridWebhook> sendgrid,
    Optional<SesWebhook> ses,
    Optional<MailgunWebhook> mailgun,
    Optional<PostmarkWebhook> postmark) {

  /** How long one fetch of an SNS certificate or subscription confirmation may take. */
  public static final Duration AWS_TIMEOUT = Duration.ofSeconds(5);

  /**
   * SNS redelivers with the original Timestamp for up to an hour (its delivery-policy cap), so SES
   * messages may be that old; the signature, not the age, is what makes them authentic.
   */
  public static final Duration SNS_RETRY_WINDOW = Duration.ofHours(1);

  public static DeliveryWebhooks configured(
      WebhookSettings settings, InstantSource clock, Supplier<ReplayGuard> replays) {
    var freshness = new Freshness(clock, settings.maxAge());
    SigningKeys keys = settings
        .sesSigningCertFile()
        .<SigningKeys>map(file -> FileSigningKeys.read(file, clock))
        .orElseGet(() -> FetchedSigningKeys.withTimeout(AWS_TIMEOUT, clock));
    Duration snsAge =
        settings.maxAge().compareTo(SNS_RETRY_WINDOW) > 0 ? settings.maxAge() : SNS_RETRY_WINDOW;
    return new DeliveryWebhooks(
        settings.sendgridPublicKey().map(key -> new SendGridWebhook(key, freshness)),
        settings.sesTopicArns().isEmpty()
            ? Optional.empty()
            : Optional.of(new SesWebhook(
                new HashSet<>(settings.sesTopicArns()),
                keys,
                new HttpSubscriptionConfirmer(AWS_TIMEOUT),
                new Freshness(clock, snsAge))),
        settings.mailgunSigningKey().map(key -> new MailgunWebhook(key, freshness, replays.get())),
        settings.postmark().map(credentials -> new PostmarkWebhook(credentials, clock)));
  }
}
