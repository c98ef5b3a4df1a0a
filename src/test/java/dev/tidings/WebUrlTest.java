package dev.tidings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Locale;
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

  @org.junit.jupiter.api.Test
  void overlong_urls_are_refused() {
    assertThat(WebUrl.problem("https://shop.example/" + "a".repeat(WebUrl.MAX_LENGTH)))
        .hasValueSatisfying(problem -> assertThat(problem).contains("at most 2048"));
  }
}
