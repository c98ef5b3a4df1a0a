package dev.tidings.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code webhook-signature} header of the Standard Webhooks specification: {@code v1,} and the
 * base64 of HMAC-SHA256 over {@code "{webhook-id}.{webhook-timestamp}.{body}"} keyed with the
 * secret's bytes; one such value per live secret, space-separated, so that a receiver holding either
 * secret of a rotation verifies the delivery.
 */
public final class WebhookSignature {
  private WebhookSignature() {}

  public static String header(String id, long timestamp, byte[] body, List<SigningSecret> secrets) {
    if (secrets.isEmpty()) throw new IllegalArgumentException("no secret to sign with");
    return secrets.stream()
        .map(secret -> "v1," + sign(id, timestamp, body, secret))
        .collect(Collectors.joining(" "));
  }

  /** The base64 HMAC-SHA256 of one delivery under one secret. */
  public static String sign(String id, long timestamp, byte[] body, SigningSecret secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.key(), "HmacSHA256"));
      mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
