package dev.tidings.web.dashboard;

import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A posted {@code application/x-www-form-urlencoded} body, read up to a limit. Decoding is strict
 * UTF-8: a broken escape or byte sequence refuses the whole form instead of turning into U+FFFD in
 * someone's campaign.
 */
final class FormFields {
  private FormFields() {}

  /** What came of reading a form. */
  sealed interface Read {}

  /** The fields by name; a name given twice keeps its last value. */
  record Fields(Map<String, String> values) implements Read {
    Fields {
      values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    String get(String name) {
      return values.getOrDefault(name, "");
    }
  }

  record TooLarge(int limit) implements Read {}

  record Malformed() implements Read {}

  static Read read(ServerRequest request, int maxBytes) {
    byte[] bytes;
    try (InputStream in = request.content().inputStream()) {
      bytes = in.readNBytes(maxBytes + 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (bytes.length > maxBytes) return new TooLarge(maxBytes);
    return parse(new String(bytes, StandardCharsets.ISO_8859_1));
  }

  /** {@code body} holds one char per byte until every escape is undone, then strict UTF-8. */
  static Read parse(String body) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) continue;
      try {
        fields.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
      } catch (IllegalArgumentException | CharacterCodingException malformed) {
        return new Malformed();
      }
    }
    return new Fields(fields);
  }

  private static String decode(String field) throws CharacterCodingException {
    byte[] raw =
        URLDecoder.decode(field, StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.ISO_8859_1);
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(raw))
        .toString();
  }
}
