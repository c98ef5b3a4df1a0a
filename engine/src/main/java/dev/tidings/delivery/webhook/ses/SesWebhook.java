package dev.tidings.delivery.webhook.ses;

import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.webhook.Freshness;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.ProviderWebhook;
import dev.tidings.delivery.webhook.WebhookJson;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An SNS message carrying SES events: the topic must be one of ours (PostHog#61644: an attacker's own
 * validly signed topic must not forge bounces), the signature must verify under a certificate from
 * an SNS host, and the timestamp must be within SNS's retry window. Only then is a subscription
 * confirmed or a notification's event mapped.
 */
public final class SesWebhook implements ProviderWebhook {
  private static final Logger log = LoggerFactory.getLogger(SesWebhook.class);

  private final Set<String> topicArns;
  private final SigningKeys keys;
  private final SubscriptionConfirmer confirmer;
  private final Freshness freshness;

  /**
   * {@code freshness} should allow SNS's retries: a redelivery keeps the original Timestamp, and a
   * delivery policy may retry for up to an hour.
   */
  public SesWebhook(
      Set<String> topicArns,
      SigningKeys keys,
      SubscriptionConfirmer confirmer,
      Freshness freshness) {
    this.topicArns = Set.copyOf(topicArns);
    this.keys = keys;
    this.confirmer = confirmer;
    this.freshness = freshness;
  }

  public Mapped receive(byte[] body) {
    SnsMessage message = SnsMessage.of(WebhookJson.parse(body));
    if (!topicArns.contains(message.topicArn()))
      throw WebhookRefused.forbidden(
          "TopicArn " + message.topicArn() + " is not configured (TIDINGS_SES_TOPIC_ARN)");
    var certificateUrl = SnsHosts.certificateUrl(message.signingCertUrl());
    verify(message, keys.keysFor(certificateUrl));
    freshness.require(timestamp(message), "Timestamp");
    return switch (message.type()) {
      case SnsMessage.SUBSCRIPTION_CONFIRMATION -> {
        confirmer.confirm(SnsHosts.subscribeUrl(message.subscribeUrl().orElseThrow()));
        log.info("confirmed the SNS subscription to {}", message.topicArn());
        yield new Mapped(List.of(), List.of());
      }
      case SnsMessage.UNSUBSCRIBE_CONFIRMATION -> {
        log.warn(
            "SNS says this endpoint was unsubscribed from {}: no more SES events arrive from it",
            message.topicArn());
        yield new Mapped(List.of(), List.of());
      }
      default -> SesEvents.map(message);
    };
  }

  static void verify(SnsMessage message, List<PublicKey> candidates) {
    String algorithm = switch (message.signatureVersion()) {
      case "1" -> "SHA1withRSA";
      case "2" -> "SHA256withRSA";
      default ->
        throw WebhookRefused.unauthenticated(
            "SignatureVersion " + message.signatureVersion() + " is not supported (1 or 2)");
    };
    if (candidates.isEmpty())
      throw WebhookRefused.unauthenticated("no valid signing certificate for "
          + message.signingCertUrl() + " (expired, not yet valid or not configured)");
    byte[] signature;
    try {
      signature = Base64.getDecoder().decode(message.signature());
    } catch (IllegalArgumentException e) {
      throw WebhookRefused.unauthenticated("Signature is not base64");
    }
    byte[] signed = message.stringToSign().getBytes(StandardCharsets.UTF_8);
    for (PublicKey key : candidates) {
      if (verifies(algorithm, key, signed, signature)) return;
    }
    throw WebhookRefused.unauthenticated("the SNS signature does not verify");
  }

  private static boolean verifies(
      String algorithm, PublicKey key, byte[] signed, byte[] signature) {
    try {
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(key);
      verifier.update(signed);
      return verifier.verify(signature);
    } catch (SignatureException | InvalidKeyException e) {
      return false;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot verify " + algorithm, e);
    }
  }

  private static Instant timestamp(SnsMessage message) {
    try {
      return Instant.parse(message.timestamp());
    } catch (DateTimeParseException e) {
      throw WebhookRefused.malformed(
          "Timestamp is not an ISO-8601 instant: " + message.timestamp());
    }
  }

  @Override
  public String provider() {
    return "ses";
  }

  @Override
  public Mapped receive(Request request, ReceiptSink sink) {
    Mapped mapped = receive(request.body());
    mapped.handTo(sink);
    return mapped;
  }
}
