package dev.tidings.recommend.blend;

import org.jspecify.annotations.Nullable;

/** One numeric parameter of an algorithm: its name, allowed range (inclusive) and default. */
public record Param(String name, double min, double max, double defaultValue, String meaning) {
  public Param {
    if (!(min <= defaultValue && defaultValue <= max))
      throw new IllegalArgumentException(name + ": default " + defaultValue + " outside its range");
  }

  /** Null when {@code value} is allowed, else what is wrong with it. */
  @Nullable String problem(double value) {
    if (Double.isNaN(value) || value < min || value > max)
      return "params." + name + " must be within " + format(min) + ".." + format(max) + " but was "
          + format(value);
    return null;
  }

  static String format(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }
}
