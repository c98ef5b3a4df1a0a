package dev.tidings.cli;

import dev.tidings.config.Settings;
import dev.tidings.config.SettingsLoader;
import java.util.HashMap;
import java.util.Map;

/** A command that reads Tidings' settings from the environment it was started with (tests pass their own). */
public abstract class EnvironmentAware {
  private Map<String, String> environment = System.getenv();

  public final void environment(Map<String, String> given) {
    this.environment = Map.copyOf(given);
  }

  protected final Map<String, String> environment() {
    return environment;
  }

  protected final Settings settings() {
    return SettingsLoader.load(environment);
  }

  /** The settings with {@code overrides} in place of (or beside) the environment's variables. */
  protected final Settings settings(Map<String, String> overrides) {
    var merged = new HashMap<>(environment);
    merged.putAll(overrides);
    return SettingsLoader.load(merged);
  }
}
