package dev.tidings.cli;

import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import dev.tidings.app.Role;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Run an HTTP node: the API, health, metrics and the dashboard.")
final class ServeCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(names = "--port", description = "HTTP port (default: TIDINGS_PORT, else 8080)")
  @Nullable Integer port;

  @Override
  public Integer call() {
    var settings = settings();
    Logging.configure(settings.logFormat());
    var node = Node.of(settings);
    node.start(Role.SERVE, port != null ? port : settings.port());
    Banner.print(node, Role.SERVE);
    UntilStopped.await(node);
    return 0;
  }
}
