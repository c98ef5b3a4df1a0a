package dev.tidings.web;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * One dependency reported by {@code /health}: its name, where it is (no credentials), and a probe
 * that answers empty when the dependency works, else what is wrong. {@code detail} is what the last
 * probe learnt worth showing beside the target (e.g. a standby's replication lag), read after it.
 */
public record DependencyCheck(
    String name,
    String target,
    Supplier<Optional<String>> problem,
    Supplier<Optional<String>> detail) {

  public DependencyCheck(String name, String target, Supplier<Optional<String>> problem) {
    this(name, target, problem, Optional::empty);
  }
}
