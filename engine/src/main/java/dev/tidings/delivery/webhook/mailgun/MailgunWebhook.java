package dev.tidings.delivery.webhook.mailgun;

import dev.tidings.config.Secret;
import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.webhook.Freshness;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.ProviderWebhook;
import dev.tidings.delivery.webhook.ReplayGuard;
import dev.tidings.delivery.webhook.WebhookJson;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.JsonNode;

/**
 * A Mailgun webhook request: {@code {"signature": {timestamp, token, signature}, "event-data": ...}}.
 * The signature covers only timestamp and token, never the event, so the token is single-use (across
 * nodes) and the timestamp must be fresh; the token is claimed last, after the event was read, so a
 * malformed request does not use it up.
 */
public final class MailgunWebhook implements ProviderWebhook {
  static final String PROVIDER = "mailgun";

  private final Secret signingKey;
  private final Freshness freshness;
  private final ReplayGuard replays;

  public MailgunWebhook(Secret signingKey, Freshness freshness, ReplayGuard replays) {
    this.signingKey = signingKey;
    this.freshness = freshness;
    this.replays = replays;
  }

  /** Verifies, maps and hands the event to {@code sink}; what was handed is returned. */
  public Mapped receive(byte[] body, ReceiptSink sink) {
    JsonNode request = WebhookJson.parse(body);
    JsonNode signature = request.path("signature");
    String timestamp = WebhookJson.text(signature, "timestamp").orElse("");
    String token = WebhookJson.text(signature, "token").orElse("");
    String claimed = WebhookJson.text(signature, "signature").orElse("");
    if (timestamp.isEmpty() || token.isEmpty() || claimed.isEmpty())
      throw WebhookRefused.unauthenticated(
          "a signed request is required: signature.timestamp, signature.token and"
              + " signature.signature");
    Instant signedAt = Freshness.unixSeconds(timestamp, "signature.timestamp");
    if (!matches(claimed, sign(timestamp + token)))
      throw WebhookRefused.unauthenticated(
          "the signature does not match timestamp and token under the configured signing key");
    freshness.require(signedAt, "signature.timestamp");
    Mapped mapped = MailgunEvents.map(request.path("event-data"));
    if (!replays.claim(PROVIDER, token, signedAt.plus(freshness.maxAge())))
      throw WebhookRefused.forbidden("this signature token was used before: a replayed request");
    try {
      mapped.handTo(sink);
    } catch (RuntimeException e) {
      replays.release(PROVIDER, token);
      throw e;
    }
    return mapped;
  }

  static String hmacHex(String key, String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no HmacSHA256", e);
    }
  }

  private String sign(String text) {
    return hmacHex(signingKey.value(), text);
  }

  private static boolean matches(String claimed, String expected) {
    return MessageDigest.isEqual(
        claimed.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8),
        expected.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String provider() {
    return PROVIDER;
  }

  @Override
  public Mapped receive(Request request, ReceiptSink sink) {
    return receive(request.body(), sink);
  }
}
