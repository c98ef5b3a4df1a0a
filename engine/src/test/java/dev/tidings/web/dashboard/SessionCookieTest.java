package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SessionCookieTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-24T08:00:00Z"));
  private final InstantSource clock = () -> now.get();
  private final SessionCookie cookies =
      new SessionCookie(new Secret("the-api-key-of-this-node-0123"), clock, false);

  private static Optional<String> value(String setCookie) {
    return Optional.of(setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';')));
  }

  @Test
  void an_issued_cookie_is_http_only_same_site_strict_and_valid_until_it_expires() {
    String issued = cookies.issue();
    assertThat(issued)
        .contains("HttpOnly")
        .contains("SameSite=Strict")
        .contains("Path=/")
        .doesNotContain("Secure");
    assertThat(cookies.valid(value(issued))).isTrue();

    now.set(now.get().plus(SessionCookie.LIFETIME).plus(Duration.ofSeconds(1)));
    assertThat(cookies.valid(value(issued))).as("expired").isFalse();
  }

  @Test
  void a_changed_expiry_a_forged_tag_or_another_key_is_refused() {
    String value = value(cookies.issue()).orElseThrow();
    String tag = value.substring(value.indexOf('.') + 1);
    long expires = Long.parseLong(value.substring(0, value.indexOf('.')));

    assertThat(cookies.valid(Optional.of((expires + 86_400) + "." + tag))).isFalse();
    assertThat(cookies.valid(Optional.of(expires + ".AAAA" + tag.substring(4)))).isFalse();
    assertThat(cookies.valid(Optional.of("garbage"))).isFalse();
    assertThat(cookies.valid(Optional.empty())).isFalse();
    var otherNode = new SessionCookie(new Secret("another-api-key-entirely-0123"), clock, false);
    assertThat(otherNode.valid(Optional.of(value))).isFalse();
  }

  @Test
  void https_nodes_mark_the_cookie_secure_and_sign_out_clears_it() {
    var secure = new SessionCookie(new Secret("the-api-key-of-this-node-0123"), clock, true);
    assertThat(secure.issue()).contains("; Secure");
    assertThat(secure.clear()).startsWith(SessionCookie.NAME + "=;").contains("Max-Age=0");
  }
}
