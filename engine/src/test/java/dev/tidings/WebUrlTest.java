package dev.tidings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebUrlTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://shop.example/p/1", "http://localhost:8080/sample/images/p-1.png",
            "HTTPS://Shop.Example",
        "https://img.example/a%20b.png?w=400&h=400#top", "http://127.0.0.1:9/x",
            "https://[2001:db8::1]:8443/p",
        "https://shop.example/produkt/größe", "https://a.example/~user/(x)"
      })
  void accepted_urls_are_also_valid_uris(String text) {
    var url = WebUrl.of(text);
    assertThat(url.value()).isEqualTo(text);
    URI uri = url.toUri();
    assertThat(uri.isAbsolute()).isTrue();
    assertThat(uri.getScheme().toLowerCase(Locale.ROOT)).isIn("http", "https");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ftp://x/y",
        "/relative",
        "javascript:alert(1)",
        "https://",
        "https:///path",
        "http://exa mple.com/",
        "https://shop.example/a b",
        "https://user:pw@shop.example/",
        "https://shop.example:0/",
        "https://shop.example:99999/",
        "https://shop.example:/",
        "https://-bad.example/",
        "https://shop.example/%zz",
        "https://shop.example/<script>",
        "https://shop.example/\r\nX-Injected: 1",
        "https://[zz::1]/",
        "mailto:a@b.example",
        "https://a.example/x[1]"
      })
  void refused_urls_say_why(String text) {
    assertThat(WebUrl.problem(text)).isPresent();
    assertThatThrownBy(() -> WebUrl.of(text)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://[1.2.3]/x",
        "http://[::1::2]/x",
        "https://shop.example/a\u00a0b",
        "https://shop.example/a\u2003b",
        "https://shop.example/a\u2028b",
        "https://shop.example/a#b#c",
        "http://1.2.3/x",
        "http://1.2.3.256/x",
        "http://a..b/x",
        "http://a-.example/x",
        "http://shop.123/x"
      })
  void what_java_net_uri_would_refuse_or_read_without_a_host_is_refused(String text) {
    assertThat(WebUrl.problem(text)).isPresent();
  }

  @Test
  void every_accepted_url_parses_as_a_uri_with_a_host() {
    var random = new Random(21);
    String alphabet = "aZ09.-:/?#%[]@!$&'()*+,;=_~ \u00a0\u00e9\u2003\u0085\u200b\ud83d\ude00";
    int accepted = 0;
    for (int i = 0; i < 200_000; i++) {
      var text = new StringBuilder(random.nextBoolean() ? "http://" : "https://");
      int length = 1 + random.nextInt(14);
      for (int c = 0; c < length; c++)
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      if (WebUrl.problem(text.toString()).isPresent()) continue;
      accepted++;
      try {
        assertThat(new URI(text.toString()).getHost()).as(text.toString()).isNotNull();
      } catch (URISyntaxException e) {
        throw new AssertionError(text + " was accepted but " + e.getMessage(), e);
      }
    }
    assertThat(accepted).isGreaterThan(1000);
  }

  @Test
  void overlong_urls_are_refused() {
    assertThat(WebUrl.problem("https://shop.example/" + "a".repeat(WebUrl.MAX_LENGTH)))
        .hasValueSatisfying(problem -> assertThat(problem).contains("at most 2048"));
  }
}
