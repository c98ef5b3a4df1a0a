package dev.tidings.cli;

import dev.tidings.app.Http;
import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import java.util.List;
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
    var node = Node.start(settings);
    var server = Http.start(node, port != null ? port : settings.port());
    Banner.print(node, server.port());
    UntilStopped.await(List.of(server, node));
    return 0;
  }
}
