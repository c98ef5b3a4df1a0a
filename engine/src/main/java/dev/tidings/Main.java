package dev.tidings;

import dev.tidings.cli.TidingsCommand;

/** {@code java -jar tidings.jar ...} and {@code ./tidings ...}: the same program. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(TidingsCommand.run(args));
  }
}
