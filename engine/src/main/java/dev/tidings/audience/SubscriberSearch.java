package dev.tidings.audience;

import java.util.Locale;
import java.util.Optional;

/**
 * What an operator types to find subscribers: the start of an id or an email, or a part of a name,
 * compared case-insensitively. The text is checked where it enters ({@link #problem}).
 */
public record SubscriberSearch(String text) {
  /** Longest text searched: an email address can be 254 characters. */
  public static final int MAX_LENGTH = 254;

  public SubscriberSearch {
    problem(text).ifPresent(why -> {
      throw new IllegalArgumentException(why);
    });
  }

  /** Why {@code text} cannot be searched for (naming {@code q}, the parameter that carries it), or empty. */
  public static Optional<String> problem(String text) {
    if (text.isBlank()) return Optional.of("q must not be empty");
    if (text.length() > MAX_LENGTH)
      return Optional.of("q must be at most " + MAX_LENGTH + " characters, got " + text.length());
    for (int i = 0; i < text.length(); i++)
      if (Character.isISOControl(text.charAt(i)))
        return Optional.of("q must not contain control characters (found one at " + i + ")");
    return Optional.empty();
  }

  /**
   * The text lower-cased with LIKE's wildcards escaped by {@code !} (the statement's escape
   * character: a backslash would have to be escaped again in the statement's text), for a pattern
   * around it.
   */
  String likeText() {
    String lower = text.strip().toLowerCase(Locale.ROOT);
    var out = new StringBuilder(lower.length() + 8);
    for (int i = 0; i < lower.length(); i++) {
      char c = lower.charAt(i);
      if (c == '!' || c == '%' || c == '_') out.append('!');
      out.append(c);
    }
    return out.toString();
  }
}
