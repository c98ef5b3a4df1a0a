package dev.tidings.tools;

import dev.tidings.cli.TidingsCommand;
import java.util.List;
import java.util.Map;

/**
 * {@code ./tidings demo|bench|evaluate ...}: the engine's command line with the tools' commands beside
 * its own. The engine's jar holds none of them.
 */
public final class ToolsMain {
  private ToolsMain() {}

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(run(System.getenv(), args));
  }

  /** Runs with {@code environment} in place of the process environment (settings are read from it). */
  public static int run(Map<String, String> environment, String... args) {
    return TidingsCommand.run(
        environment, List.of(DemoCommand.class, BenchCommand.class, EvaluateCommand.class), args);
  }
}
