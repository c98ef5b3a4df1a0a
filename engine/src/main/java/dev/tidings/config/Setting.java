package dev.tidings.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One setting, declared once in {@link SettingsCatalog}: its name, what kind of value it takes, its
 * default (as the README and the start-up description show it; for numbers and durations also the
 * value the loader falls back to), the range a number must fall in, whether it is a secret (never
 * printed), and what it means.
 *
 * @param min for {@link Kind#INTEGER} and {@link Kind#BYTES} the smallest value; for {@link
 *     Kind#SECRET} the fewest characters; for {@link Kind#DURATION} the shortest, in seconds
 * @param max for {@link Kind#INTEGER} the largest value
 */
public record Setting(
    String name, Kind kind, String defaultShown, long min, long max, String meaning) {
  /** What a setting's value is, which says how the loader reads it. */
  public enum Kind {
    TEXT,
    URL,
    PATH,
    LIST,
    CHOICE,
    ADDRESS,
    SECRET,
    INTEGER,
    BYTES,
    DURATION;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public Setting {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(defaultShown, "defaultShown");
    Objects.requireNonNull(meaning, "meaning");
    if (!name.matches("TIDINGS_[A-Z0-9_]+"))
      throw new IllegalArgumentException("a setting's name is TIDINGS_ and capitals: " + name);
    if (min > max) throw new IllegalArgumentException(name + ": min above max");
    // a number's or a duration's default is the loader's fallback: it must read as one
    switch (kind) {
      case INTEGER, BYTES -> {
        long value = Long.parseLong(literal(defaultShown).orElseThrow());
        if (value < min || value > max)
          throw new IllegalArgumentException(name + ": default outside its range");
      }
      case DURATION -> Duration.parse(literal(defaultShown).orElseThrow());
      default -> {}
    }
  }

  static Setting text(String name, Kind kind, String defaultShown, String meaning) {
    if (kind == Kind.INTEGER || kind == Kind.BYTES || kind == Kind.DURATION || kind == Kind.SECRET)
      throw new IllegalArgumentException(name + ": use the factory of its kind");
    return new Setting(name, kind, defaultShown, 0, 0, meaning);
  }

  static Setting secret(String name, String defaultShown, int minLength, String meaning) {
    return new Setting(name, Kind.SECRET, defaultShown, minLength, minLength, meaning);
  }

  static Setting integer(String name, int fallback, int min, int max, String meaning) {
    return new Setting(name, Kind.INTEGER, "`" + fallback + "`", min, max, meaning);
  }

  static Setting bytes(String name, long fallback, String meaning) {
    return new Setting(
        name,
        Kind.BYTES,
        "`" + fallback + "` (" + binary(fallback) + ")",
        1,
        Long.MAX_VALUE,
        meaning);
  }

  /** A duration of at least {@code shortest} (zero: any that is not negative). */
  static Setting duration(String name, Duration fallback, Duration shortest, String meaning) {
    return new Setting(
        name, Kind.DURATION, "`" + fallback + "`", shortest.toSeconds(), Long.MAX_VALUE, meaning);
  }

  public boolean secret() {
    return kind == Kind.SECRET;
  }

  /**
   * The default as a value, when the default shown is one (written first, in backticks: {@code `16`});
   * empty when it is a description ({@code none}, {@code generated once into ...}).
   */
  public Optional<String> literalDefault() {
    return literal(defaultShown);
  }

  private static Optional<String> literal(String shown) {
    if (!shown.startsWith("`")) return Optional.empty();
    int end = shown.indexOf('`', 1);
    return end > 1 ? Optional.of(shown.substring(1, end)) : Optional.empty();
  }

  private static String binary(long bytes) {
    if (bytes % (1L << 30) == 0) return bytes / (1L << 30) + " GiB";
    if (bytes % (1L << 20) == 0) return bytes / (1L << 20) + " MiB";
    return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
  }

  public int intDefault() {
    return Math.toIntExact(longDefault());
  }

  public long longDefault() {
    if (kind != Kind.INTEGER && kind != Kind.BYTES)
      throw new IllegalStateException(name + " is not a number");
    return Long.parseLong(literalDefault().orElseThrow());
  }

  public Duration durationDefault() {
    if (kind != Kind.DURATION) throw new IllegalStateException(name + " is not a duration");
    return Duration.parse(literalDefault().orElseThrow());
  }

  /** The kind and, for numbers, the range, as the README's table shows them. */
  public String kindShown() {
    return switch (kind) {
      case INTEGER -> "integer, " + min + "-" + max;
      case BYTES -> "bytes, at least " + min;
      case DURATION ->
        min > 0 ? "ISO-8601 duration, at least " + Duration.ofSeconds(min) : "ISO-8601 duration";
      case SECRET -> min > 0 ? "secret, at least " + min + " characters" : "secret";
      default -> kind.label();
    };
  }
}
