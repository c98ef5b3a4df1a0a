package dev.tidings;

import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Text that PostgreSQL can hold. Its {@code text} type refuses the NUL character, and a lone UTF-16
 * surrogate has no UTF-8 form (the driver would send a '?' or fail): such input is refused where it enters,
 * naming where it was, instead of failing the statement that would store it (a 500, or a whole import
 * lost for one row).
 */
public final class StoredText {
  private StoredText() {}

  /** Why {@code text} cannot be stored, or null when it can. */
  public static @Nullable String problem(String text) {
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = text.charAt(i);
      if (c == 0) return "contains a NUL character (U+0000), which cannot be stored";
      if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1)))
        i++;
      else if (Character.isSurrogate(c))
        return "contains a lone UTF-16 surrogate (U+"
            + Integer.toHexString(c).toUpperCase(Locale.ROOT)
            + "), which is not a character";
    }
    return null;
  }

  /**
   * The first string of a JSON document (a value or a property name) that cannot be stored, as
   * {@code "<path> <why>"} with the path in the API's own notation ({@code audience.conditions[0].values[1]});
   * null when every string can be stored.
   */
  public static @Nullable String problemIn(JsonNode node) {
    return problemIn(node, "");
  }

  private static @Nullable String problemIn(JsonNode node, String path) {
    if (node.isString()) {
      String why = problem(node.stringValue());
      return why == null ? null : (path.isEmpty() ? "the body" : path) + " " + why;
    }
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        String found = problemIn(node.get(i), path + "[" + i + "]");
        if (found != null) return found;
      }
    } else if (node.isObject()) {
      for (Map.Entry<String, JsonNode> entry : node.properties()) {
        String name = entry.getKey();
        String why = problem(name);
        String here = path.isEmpty() ? name : path + "." + name;
        if (why != null) return "a field name " + (path.isEmpty() ? "" : "in " + path + " ") + why;
        String found = problemIn(entry.getValue(), here);
        if (found != null) return found;
      }
    }
    return null;
  }
}
