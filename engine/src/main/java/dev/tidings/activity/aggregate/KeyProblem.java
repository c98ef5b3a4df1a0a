package dev.tidings.activity.aggregate;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import java.util.function.Supplier;

/** A key that does not follow the grammar; the message says where and why. */
public final class KeyProblem extends InvalidInputException {
  public KeyProblem(String message) {
    super(message);
  }

  private KeyProblem(String field, String message) {
    super(Problem.format(field, field + ": " + message));
  }

  /**
   * Reads a key (or a part of one) that a request gave as {@code field}, so that a problem with it
   * names that field.
   */
  public static <T> T reading(String field, Supplier<T> parse) {
    try {
      return parse.get();
    } catch (KeyProblem wrong) {
      throw new KeyProblem(field, String.valueOf(wrong.getMessage()));
    }
  }
}
