package dev.tidings.cli;

import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import dev.tidings.app.NodeAdditions;
import dev.tidings.app.Role;
import dev.tidings.config.Settings;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * A command that runs a node in one role until it is stopped: {@code serve}, {@code worker}, and a
 * tool's node with what it adds ({@link #additions}).
 */
public abstract class NodeCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--port",
      description = "HTTP port (default: TIDINGS_PORT, else 8080; 0 picks a free one)")
  @Nullable Integer port;

  protected abstract Role role();

  /** What the node runs beside the engine's capabilities: nothing, for the engine's own commands. */
  protected NodeAdditions additions(Settings settings) {
    return NodeAdditions.NONE;
  }

  @Override
  public final Integer call() {
    var settings = settings();
    Role role = Role.on(role(), settings.embeddedDatabase());
    var additions = additions(settings);
    Logging.configure(settings.logFormat(), settings.accessLog());
    var node = Node.of(settings, additions);
    node.start(role, port != null ? port : settings.port());
    Banner.print(node, role);
    UntilStopped.await(node);
    return 0;
  }
}
