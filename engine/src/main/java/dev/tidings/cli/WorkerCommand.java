package dev.tidings.cli;

import dev.tidings.app.Role;
import picocli.CommandLine.Command;

@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description = {
      "Run a queue-consuming node: every capability's queue consumers, and health and metrics over HTTP.",
      "Start as many as the queues need; they share the work through the configured queues."
    })
final class WorkerCommand extends NodeCommand {
  @Override
  protected Role role() {
    return Role.WORKER;
  }
}
