package dev.tidings.cli;

import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = "Apply database migrations (every node also does this at start), then repair the"
        + " stored rows an earlier version wrote that today's rules refuse, and exit.")
final class MigrateCommand extends EnvironmentAware implements Callable<Integer> {
  @Override
  public Integer call() {
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var node = Node.of(settings)) {
      String database = node.infrastructure().database().describe();
      System.out.println("schema is up to date on " + database);
      node.repairStoredRows().lines().forEach(System.out::println);
    }
    return 0;
  }
}
