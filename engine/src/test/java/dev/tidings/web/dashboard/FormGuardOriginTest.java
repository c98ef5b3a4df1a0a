package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A form's {@code Origin} against the site it was posted to: scheme, host and port all count. */
class FormGuardOriginTest {

  @ParameterizedTest(name = "{0} posting to {1}://{2}: {3}")
  @CsvSource({
    "http://127.0.0.1:8080, http, 127.0.0.1:8080, true",
    "https://shop.example, https, shop.example, true",
    "https://shop.example:443, https, shop.example, true",
    "https://shop.example, https, shop.example:443, true",
    "http://shop.example, http, shop.example:80, true",
    "HTTPS://Shop.Example, https, shop.example, true",
    "http://[::1]:8080, http, [::1]:8080, true",
    // another scheme on the same host and port is another site
    "http://shop.example, https, shop.example, false",
    "http://shop.example:443, https, shop.example:443, false",
    "https://127.0.0.1:8080, http, 127.0.0.1:8080, false",
    // another host or port
    "https://evil.example, https, shop.example, false",
    "https://shop.example:8443, https, shop.example, false",
    "https://shop.example.evil.example, https, shop.example, false",
    "http://[::1]:8081, http, [::1]:8080, false",
    // not an origin at all
    "null, https, shop.example, false",
    "shop.example, https, shop.example, false",
    "https://, https, shop.example, false",
    "https://user@shop.example, https, shop.example, false",
    "https://shop.example/path, https, shop.example, false",
  })
  void an_origin_is_the_same_site_only_when_scheme_host_and_port_agree(
      String origin, String scheme, String host, boolean same) {
    assertThat(FormGuard.sameOrigin(origin, scheme, host)).isEqualTo(same);
  }
}
