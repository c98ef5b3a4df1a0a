package dev.tidings.web.dashboard;

import dev.tidings.config.Secret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The dashboard's session: a cookie that holds its expiry signed with a key derived from the API key.
 * Nothing is stored, so every node that shares the API key accepts it, and changing the API key signs
 * everyone out. HttpOnly (no script reads it) and SameSite=Strict (no other site's request carries
 * it, which with the Origin check on each POST makes the forms CSRF-safe).
 */
final class SessionCookie {
  static final String NAME = "tidings_session";
  static final Duration LIFETIME = Duration.ofHours(12);
  private static final String PURPOSE = "tidings dashboard session v1:";

  private final SecretKeySpec key;
  private final InstantSource clock;
  private final boolean secure;

  SessionCookie(Secret apiKey, InstantSource clock, boolean secure) {
    this.key = new SecretKeySpec(apiKey.value().getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    this.clock = clock;
    this.secure = secure;
  }

  /** The {@code Set-Cookie} value that signs the browser in until {@link #LIFETIME} from now. */
  String issue() {
    long expires = clock.instant().plus(LIFETIME).getEpochSecond();
    String value = expires + "." + sign(expires);
    return NAME + "=" + value + "; Path=/; Max-Age=" + LIFETIME.toSeconds()
        + "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
  }

  /** The {@code Set-Cookie} value that signs the browser out. */
  String clear() {
    return NAME + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
  }

  /** Whether {@code value} (the cookie as the browser sent it) is ours and not expired. */
  boolean valid(Optional<String> value) {
    if (value.isEmpty()) return false;
    String text = value.get();
    int dot = text.indexOf('.');
    if (dot <= 0) return false;
    long expires;
    try {
      expires = Long.parseLong(text.substring(0, dot));
    } catch (NumberFormatException garbled) {
      return false;
    }
    if (Instant.ofEpochSecond(expires).isBefore(clock.instant())) return false;
    byte[] given = text.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(given, sign(expires).getBytes(StandardCharsets.US_ASCII));
  }

  private String sign(long expires) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      byte[] tag = mac.doFinal((PURPOSE + expires).getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(tag);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
