package dev.tidings.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.function.Predicate;

/** Shrinks a failing input while it still fails the same way: removes chunks, halving their size. */
public final class Minimizer {
  private static final int MAX_TRIES = 2_000;

  private Minimizer() {}

  public static byte[] minimize(byte[] data, Predicate<byte[]> stillFails) {
    byte[] best = data;
    int tries = 0;
    for (int chunk = Math.max(1, best.length / 2); chunk >= 1 && tries < MAX_TRIES; chunk /= 2) {
      boolean shrunk = true;
      while (shrunk && tries < MAX_TRIES) {
        shrunk = false;
        for (int at = 0; at + chunk <= best.length && tries < MAX_TRIES; ) {
          byte[] candidate = SeedMutator.concat(
              SeedMutator.slice(best, 0, at), SeedMutator.slice(best, at + chunk, best.length));
          tries++;
          if (stillFails.test(candidate)) {
            best = candidate;
            shrunk = true;
          } else {
            at += chunk;
          }
        }
      }
    }
    return best;
  }

  /** The input as Java-escaped text, cut at 300 characters. */
  public static String show(byte[] data) {
    String text = new String(data, UTF_8);
    var out = new StringBuilder("\"");
    for (int i = 0; i < text.length() && out.length() < 300; i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20 || c == 0x7f || (c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFD)
        out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    if (text.length() > 300) out.append("...(").append(text.length()).append(" chars)");
    return out.append('"').toString();
  }
}
