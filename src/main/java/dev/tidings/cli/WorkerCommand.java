package dev.tidings.cli;

import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import dev.tidings.app.Role;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description = {
      "Run a queue-consuming node: every capability's queue consumers, and health and metrics over HTTP.",
      "Start as many as the queues need; they share the work through the configured queues."
    })
final class WorkerCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--port",
      description =
          "HTTP port for health and metrics (default: TIDINGS_PORT, else 8080; 0 picks a free one)")
  @Nullable Integer port;

  @Override
  public Integer call() {
    var settings = settings();
    Logging.configure(settings.logFormat());
    var node = Node.of(settings);
    node.start(Role.WORKER, port != null ? port : settings.port());
    Banner.print(node, Role.WORKER);
    UntilStopped.await(node);
    return 0;
  }
}
