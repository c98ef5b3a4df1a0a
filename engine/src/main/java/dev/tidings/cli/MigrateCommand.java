package dev.tidings.cli;

import dev.tidings.app.Infrastructure;
import dev.tidings.app.Logging;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = "Apply database migrations and exit (every node also does this at start).")
final class MigrateCommand extends EnvironmentAware implements Callable<Integer> {
  @Override
  public Integer call() {
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var infrastructure = new Infrastructure(settings)) {
      System.out.println("schema is up to date on " + infrastructure.database().describe());
    }
    return 0;
  }
}
