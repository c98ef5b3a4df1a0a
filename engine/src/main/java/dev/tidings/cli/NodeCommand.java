package dev.tidings.cli;

import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import dev.tidings.app.Role;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** A command that runs a node in one role until it is stopped: {@code serve}, {@code worker}. */
abstract class NodeCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--port",
      description = "HTTP port (default: TIDINGS_PORT, else 8080; 0 picks a free one)")
  @Nullable Integer port;

  abstract Role role();

  @Override
  public final Integer call() {
    var settings = settings();
    Logging.configure(settings.logFormat());
    var node = Node.of(settings);
    node.start(role(), port != null ? port : settings.port());
    Banner.print(node, role());
    UntilStopped.await(node);
    return 0;
  }
}
