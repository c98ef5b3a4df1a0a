package dev.tidings.app;

import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** A value built on first use and kept: wiring builds a service only when a command or route needs it. */
final class Lazy<T> implements Supplier<T> {
  private final Supplier<T> build;
  private @Nullable T value;

  private Lazy(Supplier<T> build) {
    this.build = build;
  }

  static <T> Lazy<T> of(Supplier<T> build) {
    return new Lazy<>(build);
  }

  @Override
  public synchronized T get() {
    T built = value;
    if (built == null) {
      built = build.get();
      value = built;
    }
    return built;
  }

  /** The value if it was built, for closing only what was opened. */
  synchronized Optional<T> ifBuilt() {
    return Optional.ofNullable(value);
  }
}
