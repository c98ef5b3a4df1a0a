package dev.tidings.config;

import dev.tidings.TidingsException;
import java.util.List;

/** Configuration that cannot be used; lists every problem at once so an operator fixes them in one go. */
public final class ConfigException extends TidingsException {
  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super("invalid configuration:\n  - " + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
