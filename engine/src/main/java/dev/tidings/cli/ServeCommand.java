package dev.tidings.cli;

import dev.tidings.app.Role;
import picocli.CommandLine.Command;

@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Run an HTTP node: the API, health, metrics and the dashboard.")
final class ServeCommand extends NodeCommand {
  @Override
  protected Role role() {
    return Role.SERVE;
  }
}
