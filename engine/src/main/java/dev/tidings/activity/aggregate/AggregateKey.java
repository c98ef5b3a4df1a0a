package dev.tidings.activity.aggregate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A self-describing aggregate key: typed segments joined by {@code :}, such as {@code
 * s@user:s@u-42:s@purchases_by_brand:s@buy_again:b@2026-11}. Everything a reader needs (whose, what,
 * which algorithm reads it, which period) is in the key, so an aggregation that needs a new dimension
 * or period writes new keys and no schema changes. Stored as a hash key (every segment before the
 * period) and a range key (the period), so one entity's aggregate is read by prefix and a span of
 * days by range.
 */
public record AggregateKey(List<KeyPart> parts) {
  private static final int MAX_LENGTH = 1_024;

  public AggregateKey {
    parts = List.copyOf(parts);
    if (parts.isEmpty()) throw new KeyProblem("a key has at least one segment");
    for (int i = 0; i < parts.size() - 1; i++) {
      if (parts.get(i) instanceof KeyPart.Bucket)
        throw new KeyProblem("a period (b@) can only be a key's last segment");
    }
  }

  public static AggregateKey of(KeyPart... parts) {
    return new AggregateKey(List.of(parts));
  }

  /** The key as text; {@link #parse} gives it back exactly. */
  public String format() {
    var out = new StringBuilder();
    for (KeyPart part : parts) {
      if (!out.isEmpty()) out.append(':');
      out.append(part.format());
    }
    return out.toString();
  }

  /** Every segment before the period: the key of the entity whose periods are stored together. */
  public String hashKey() {
    return bucket().isPresent()
        ? new AggregateKey(parts.subList(0, parts.size() - 1)).format()
        : format();
  }

  /** The period's text, or empty when the key has no period. */
  public String rangeKey() {
    return bucket().map(KeyPart.Bucket::text).orElse("");
  }

  public Optional<KeyPart.Bucket> bucket() {
    return parts.getLast() instanceof KeyPart.Bucket bucket
        ? Optional.of(bucket)
        : Optional.empty();
  }

  /** Reads a key written by {@link #format}; a key off the grammar fails saying where. */
  public static AggregateKey parse(String text) {
    if (text.isEmpty()) throw new KeyProblem("the key is empty");
    if (text.length() > MAX_LENGTH)
      throw new KeyProblem("a key has at most " + MAX_LENGTH + " characters, not " + text.length());
    var parts = new ArrayList<KeyPart>();
    int at = 0;
    while (true) {
      int segment = parts.size() + 1;
      if (at + 2 > text.length() || text.charAt(at + 1) != '@')
        throw new KeyProblem("segment " + segment + " does not start with a type tag such as s@");
      char tag = text.charAt(at);
      at += 2;
      if (tag == 's') {
        var value = new StringBuilder();
        while (at < text.length() && text.charAt(at) != ':') {
          char c = text.charAt(at++);
          if (c == '\\') {
            if (at == text.length())
              throw new KeyProblem("segment " + segment + " ends in a lone backslash");
            c = text.charAt(at++);
          }
          value.append(c);
        }
        parts.add(new KeyPart.Text(value.toString()));
      } else {
        int end = text.indexOf(':', at);
        String value = text.substring(at, end < 0 ? text.length() : end);
        at += value.length();
        parts.add(
            switch (tag) {
              case 'i' -> number(value, segment);
              case 'b' -> KeyPart.Bucket.parse(value);
              default ->
                throw new KeyProblem(
                    "segment " + segment + " has the unknown type tag '" + tag + "@' (s@, i@, b@)");
            });
      }
      if (at == text.length()) return new AggregateKey(parts);
      at++; // the ':' between segments
    }
  }

  private static KeyPart.Number number(String value, int segment) {
    try {
      // Long.parseLong accepts a leading '+', which would not write back the same
      if (value.startsWith("+")) throw new NumberFormatException();
      return new KeyPart.Number(Long.parseLong(value));
    } catch (NumberFormatException e) {
      throw new KeyProblem("segment " + segment + " (i@) is not a whole number: '" + value + "'");
    }
  }
}
