package dev.tidings.web.dashboard;

import dev.tidings.config.Secret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The dashboard's session: a cookie that holds a random session id and its expiry, signed with the
 * API key. Every node that shares the API key accepts it and changing the API key signs everyone out;
 * signing out writes the id to {@link SessionSignOuts}, which every node consults. HttpOnly (no script reads it) and SameSite=Strict (no other site's request carries
 * it, which with the Origin check on each POST makes the forms CSRF-safe).
 */
final class SessionCookie {
  static final String NAME = "tidings_session";
  static final Duration LIFETIME = Duration.ofHours(12);
  private static final String PURPOSE = "tidings dashboard session v2:";
  private static final String FORM_PURPOSE = "tidings dashboard form v1:";

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A session the cookie proves: its id (what a sign-out records) and when it expires. */
  record Session(String id, Instant expires) {}

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
    byte[] id = new byte[18];
    RANDOM.nextBytes(id);
    String payload = expires + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    String value = payload + "." + sign(payload);
    return NAME + "=" + value + "; Path=/; Max-Age=" + LIFETIME.toSeconds()
        + "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
  }

  /** The {@code Set-Cookie} value that signs the browser out. */
  String clear() {
    return NAME + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
  }

  /** Whether {@code value} (the cookie as the browser sent it) is ours and not expired. */
  boolean valid(Optional<String> value) {
    return session(value).isPresent();
  }

  /** The session {@code value} proves, if it is ours and not expired (signed out or not). */
  Optional<Session> session(Optional<String> value) {
    if (value.isEmpty()) return Optional.empty();
    String text = value.get();
    int first = text.indexOf('.');
    int last = text.lastIndexOf('.');
    if (first <= 0 || last <= first + 1) return Optional.empty();
    String payload = text.substring(0, last);
    byte[] given = text.substring(last + 1).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(given, sign(payload).getBytes(StandardCharsets.US_ASCII)))
      return Optional.empty();
    long expires;
    try {
      expires = Long.parseLong(text.substring(0, first));
    } catch (NumberFormatException garbled) {
      return Optional.empty();
    }
    Instant expiry = Instant.ofEpochSecond(expires);
    if (expiry.isBefore(clock.instant())) return Optional.empty();
    return Optional.of(new Session(payload.substring(first + 1), expiry));
  }

  /**
   * The token every form of this session carries: derived from the session id under a purpose of its
   * own, so it proves the session without being the cookie, and dies with it.
   */
  String formToken(Session session) {
    return mac(FORM_PURPOSE, session.id());
  }

  private String sign(String payload) {
    return mac(PURPOSE, payload);
  }

  private String mac(String purpose, String payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      byte[] tag = mac.doFinal((purpose + payload).getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(tag);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
