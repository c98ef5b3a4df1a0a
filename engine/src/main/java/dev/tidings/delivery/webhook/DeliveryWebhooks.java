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
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

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

  /** A provider Tidings takes webhooks from: its name in the URL, as people write it, its settings. */
  public record Provider(String name, String shown, String settings) {}

  /** Every provider, by its name in the URL. */
  public static final Map<String, Provider> PROVIDERS = Map.of(
      "sendgrid",
      new Provider("sendgrid", "SendGrid", "TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY"),
      "ses",
      new Provider("ses", "Amazon SES", "TIDINGS_SES_TOPIC_ARN"),
      "mailgun",
      new Provider("mailgun", "Mailgun", "TIDINGS_MAILGUN_SIGNING_KEY"),
      "postmark",
      new Provider(
          "postmark",
          "Postmark",
          "TIDINGS_POSTMARK_WEBHOOK_USER and TIDINGS_POSTMARK_WEBHOOK_PASSWORD"));

  /** The webhook of {@code provider}, when this node's settings configure one. */
  public Optional<ProviderWebhook> named(String provider) {
    return Stream.of(sendgrid, ses, mailgun, postmark)
        .flatMap(Optional::stream)
        .map(ProviderWebhook.class::cast)
        .filter(webhook -> webhook.provider().equals(provider))
        .findFirst();
  }

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
