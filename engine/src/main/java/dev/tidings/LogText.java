package dev.tidings;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Text from outside (a form field, a provider's event, a path) made fit for one log line. A text log is
 * read line by line: a CR or LF in a logged value would start a line that looks like the server's own, and
 * an escape sequence could rewrite what a terminal shows. Control characters (C0, DEL, C1) and the Unicode
 * line and paragraph separators are written as escapes ({@code \n}, {@code \u0000}), a backslash as
 * {@code \\} so that an escape in the log always means the character, and a long text is cut.
 */
public final class LogText {
  /** Characters of the text kept; a log line names a value, it does not carry a document. */
  public static final int MAX_CHARS = 300;

  private LogText() {}

  /** {@code text} escaped and cut for a log line; {@code null} for null. */
  public static String of(@Nullable Object text) {
    if (text == null) return "null";
    String value = text.toString();
    boolean cut = value.length() > MAX_CHARS;
    String kept = cut ? value.substring(0, MAX_CHARS) : value;
    StringBuilder out = null;
    for (int i = 0; i < kept.length(); i++) {
      char c = kept.charAt(i);
      String escape = escape(c);
      if (escape != null && out == null)
        out = new StringBuilder(kept.length() + 16).append(kept, 0, i);
      if (out != null) {
        if (escape != null) out.append(escape);
        else out.append(c);
      }
    }
    String shown = out == null ? kept : out.toString();
    return cut ? shown + "...(" + value.length() + " chars)" : shown;
  }

  private static @Nullable String escape(char c) {
    return switch (c) {
      case '\\' -> "\\\\";
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      default ->
        Character.isISOControl(c) || c == '\u2028' || c == '\u2029'
            ? String.format(Locale.ROOT, "\\u%04x", (int) c)
            : null;
    };
  }
}
