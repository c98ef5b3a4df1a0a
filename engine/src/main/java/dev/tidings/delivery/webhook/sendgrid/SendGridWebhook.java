package dev.tidings.delivery.webhook.sendgrid;

import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.webhook.Freshness;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.ProviderWebhook;
import dev.tidings.delivery.webhook.WebhookJson;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * Verifies a SendGrid Event Webhook request, then maps its events. SendGrid signs the timestamp
 * header's text followed by the body's exact bytes, so the body is verified before it is parsed:
 * re-serialised JSON would not match.
 */
public final class SendGridWebhook implements ProviderWebhook {
  public static final String SIGNATURE_HEADER = "X-Twilio-Email-Event-Webhook-Signature";
  public static final String TIMESTAMP_HEADER = "X-Twilio-Email-Event-Webhook-Timestamp";

  private final PublicKey publicKey;
  private final Freshness freshness;

  public SendGridWebhook(PublicKey publicKey, Freshness freshness) {
    this.publicKey = publicKey;
    this.freshness = freshness;
  }

  public Mapped receive(Optional<String> signature, Optional<String> timestamp, byte[] body) {
    if (signature.isEmpty() || timestamp.isEmpty())
      throw WebhookRefused.unauthenticated(
          "a signed request is required: " + SIGNATURE_HEADER + " and " + TIMESTAMP_HEADER);
    Instant signedAt = Freshness.unixSeconds(timestamp.get(), TIMESTAMP_HEADER);
    if (!verifies(decode(signature.get()), timestamp.get(), body))
      throw WebhookRefused.unauthenticated(
          "the signature does not match the body and timestamp under the configured key");
    freshness.require(signedAt, TIMESTAMP_HEADER);
    return SendGridEvents.map(WebhookJson.parse(body));
  }

  private boolean verifies(byte[] signature, String timestamp, byte[] body) {
    try {
      Signature verifier = Signature.getInstance("SHA256withECDSA");
      verifier.initVerify(publicKey);
      verifier.update(timestamp.getBytes(StandardCharsets.UTF_8));
      verifier.update(body);
      return verifier.verify(signature);
    } catch (SignatureException e) {
      // a signature that is not even well-formed DER is as forged as one that does not match
      return false;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot verify ECDSA P-256 signatures", e);
    }
  }

  private static byte[] decode(String signature) {
    try {
      return Base64.getDecoder().decode(signature.trim());
    } catch (IllegalArgumentException e) {
      throw WebhookRefused.unauthenticated(SIGNATURE_HEADER + " is not base64");
    }
  }

  @Override
  public String provider() {
    return "sendgrid";
  }

  @Override
  public Mapped receive(Request request, ReceiptSink sink) {
    Mapped mapped =
        receive(request.header(SIGNATURE_HEADER), request.header(TIMESTAMP_HEADER), request.body());
    mapped.handTo(sink);
    return mapped;
  }
}
