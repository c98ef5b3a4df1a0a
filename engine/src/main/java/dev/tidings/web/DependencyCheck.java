package dev.tidings.web;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * One dependency reported by {@code /health}: its name, where it is (no credentials), and a probe
 * that answers empty when the dependency works, else what is wrong.
 */
public record DependencyCheck(String name, String target, Supplier<Optional<String>> problem) {}
