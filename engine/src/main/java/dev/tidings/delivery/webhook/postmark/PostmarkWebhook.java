package dev.tidings.delivery.webhook.postmark;

import dev.tidings.config.WebhookSettings.PostmarkCredentials;
import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.ProviderWebhook;
import dev.tidings.delivery.webhook.WebhookJson;
import dev.tidings.delivery.webhook.WebhookRefused;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Optional;

/**
 * A Postmark webhook request. Postmark signs nothing: the credentials in the webhook URL
 * ({@code https://user:password@host/webhooks/postmark}) arrive as basic auth and are the whole proof.
 */
public final class PostmarkWebhook implements ProviderWebhook {
  private final byte[] expected;
  private final InstantSource clock;

  public PostmarkWebhook(PostmarkCredentials credentials, InstantSource clock) {
    this.clock = clock;
    this.expected = (credentials.user() + ":" + credentials.password().value())
        .getBytes(StandardCharsets.UTF_8);
  }

  public Mapped receive(Optional<String> authorization, byte[] body) {
    if (authorization.isEmpty() || !authorization.get().regionMatches(true, 0, "Basic ", 0, 6))
      throw WebhookRefused.unauthenticated(
          "basic auth is required: put the configured user and password in the webhook URL");
    byte[] presented;
    try {
      presented = Base64.getDecoder().decode(authorization.get().substring(6).trim());
    } catch (IllegalArgumentException e) {
      throw WebhookRefused.unauthenticated("the basic auth credentials are not base64");
    }
    // user and password compared as one string, in constant time: timing says nothing of either
    if (!MessageDigest.isEqual(presented, expected))
      throw WebhookRefused.unauthenticated(
          "the basic auth credentials are not the configured ones");
    return PostmarkEvents.map(WebhookJson.parse(body), clock.instant());
  }

  @Override
  public String provider() {
    return "postmark";
  }

  @Override
  public Mapped receive(Request request, ReceiptSink sink) {
    Mapped mapped = receive(request.header("Authorization"), request.body());
    mapped.handTo(sink);
    return mapped;
  }
}
