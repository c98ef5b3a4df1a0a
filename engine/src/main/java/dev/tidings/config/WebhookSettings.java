package dev.tidings.config;

import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the delivery webhooks need to tell a provider's request from a forgery. A provider whose
 * settings are absent has its route answer 404 "not configured": an unverified webhook is never
 * accepted.
 *
 * @param sendgridPublicKey the Event Webhook's verification key (P-256)
 * @param sesTopicArns the SNS topics whose messages are accepted; empty disables the SES route
 * @param sesSigningCertFile SNS signing certificates from a file (closed networks) instead of fetched
 * @param maxAge how far a signed timestamp may be from now before the request counts as stale
 */
public record WebhookSettings(
    Optional<PublicKey> sendgridPublicKey,
    List<String> sesTopicArns,
    Optional<Path> sesSigningCertFile,
    Optional<Secret> mailgunSigningKey,
    Optional<PostmarkCredentials> postmark,
    Duration maxAge) {

  public static final Duration DEFAULT_MAX_AGE = SettingsCatalog.WEBHOOK_MAX_AGE.durationDefault();

  public WebhookSettings {
    sesTopicArns = List.copyOf(sesTopicArns);
  }

  public static WebhookSettings none() {
    return new WebhookSettings(
        Optional.empty(),
        List.of(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        DEFAULT_MAX_AGE);
  }

  /** The basic-auth pair Postmark's webhook URL carries ({@code https://user:password@host/...}). */
  public record PostmarkCredentials(String user, Secret password) {}
}
