package dev.tidings;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * What asking a capability for something came to, as a value: done, or refused for a reason the
 * person who asked can act on. A page that shows a refusal beside what was typed holds it this way
 * instead of catching the exception itself, and answers it with the one status its kind has; a failure
 * of Tidings itself ({@link ErrorKind#INTERNAL}) is never a refusal and goes on to the edge.
 */
public sealed interface Attempt<T> {
  record Done<T>(T value) implements Attempt<T> {
    public Done {
      Objects.requireNonNull(value, "value");
    }
  }

  record Refused<T>(TidingsException reason) implements Attempt<T> {}

  static <T> Attempt<T> of(Supplier<T> work) {
    try {
      return new Done<>(work.get());
    } catch (TidingsException refused) {
      if (refused.kind() == ErrorKind.INTERNAL) throw refused;
      return new Refused<>(refused);
    }
  }

  /** Work with no result of its own: done is {@code true}. */
  static Attempt<Boolean> run(Runnable work) {
    return of(() -> {
      work.run();
      return Boolean.TRUE;
    });
  }
}
