package dev.tidings.imports;

import dev.tidings.Json;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * JSON objects of strings (product attributes) read and written without building a JSON tree or
 * looking up serializers: they come once per imported row, so the general path showed in profiles.
 */
public final class StringMaps {
  private StringMaps() {}

  /** The object's entries in order; null when {@code json} is valid JSON but not an object of strings. */
  static @Nullable Map<String, String> parse(String json) {
    try (JsonParser parser = Json.MAPPER.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) return null;
      var map = new LinkedHashMap<String, String>();
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
        String name = parser.currentName();
        if (parser.nextToken() != JsonToken.VALUE_STRING) return null;
        map.put(name, parser.getString());
      }
      if (token != JsonToken.END_OBJECT || parser.nextToken() != null) return null;
      return Collections.unmodifiableMap(map);
    }
  }

  /** The map as a JSON object, e.g. {@code {"colour":"red"}}. */
  public static String write(Map<String, String> map) {
    if (map.isEmpty()) return "{}";
    var out = new StringBuilder(16 * map.size() + 2).append('{');
    boolean first = true;
    for (var entry : map.entrySet()) {
      if (!first) out.append(',');
      first = false;
      quote(entry.getKey(), out).append(':');
      quote(entry.getValue(), out);
    }
    return out.append('}').toString();
  }

  private static StringBuilder quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }
}
