package dev.tidings.fuzz;

import java.util.List;

/**
 * The fuzzing property of a parser: it returns a value or throws one of the exceptions its contract
 * names for invalid input. Anything else (a NullPointerException, ClassCastException, ArithmeticException,
 * StackOverflowError, OutOfMemoryError, an unchecked exception the edge would turn into a 500) is
 * rethrown, as a {@link Finding} when it is an exception, so that the fuzzer reports it with its input.
 */
public final class Refusals {
  private Refusals() {}

  /** A parser body that may throw anything. */
  @FunctionalInterface
  public interface Attempt {
    void run() throws Exception;
  }

  /** A failure the parser's contract does not allow; the cause is what it threw. */
  public static final class Finding extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Finding(Throwable cause) {
      super(cause.getClass().getName() + ": " + cause.getMessage(), cause);
    }
  }

  public static void allowOnly(Attempt attempt, Class<?>... refusals) {
    try {
      attempt.run();
    } catch (Throwable thrown) {
      for (Class<?> allowed : List.of(refusals)) {
        if (allowed.isInstance(thrown)) return;
      }
      if (thrown instanceof Error error)
        throw error; // StackOverflowError, OutOfMemoryError: as they are
      throw new Finding(thrown);
    }
  }
}
