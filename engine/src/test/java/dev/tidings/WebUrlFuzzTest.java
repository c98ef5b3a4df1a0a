package dev.tidings;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.fuzz.Inputs;
import dev.tidings.fuzz.Refusals;
import java.net.URI;
import java.util.Locale;

/**
 * Product image and landing URLs: {@link WebUrl#problem} answers for any text, {@link WebUrl#of} refuses
 * with IllegalArgumentException (its contract), and what it accepts parses as a {@link URI} with an
 * http(s) scheme and a host, as docs/decisions.md promises.
 */
class WebUrlFuzzTest {
  @FuzzTest
  void web_url(byte[] data) {
    String text = Inputs.text(data);
    Refusals.allowOnly(() -> {
      boolean acceptable = WebUrl.problem(text).isEmpty();
      WebUrl url;
      try {
        url = WebUrl.of(text);
      } catch (IllegalArgumentException refused) {
        if (acceptable)
          throw new IllegalStateException("problem() accepted what of() refused", refused);
        return;
      }
      URI uri = new URI(url.value());
      if (uri.getHost() == null && uri.getAuthority() == null)
        throw new IllegalStateException("accepted a URL without a host: " + text);
      String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https"))
        throw new IllegalStateException("accepted a URL that is not http(s): " + text);
    });
  }
}
