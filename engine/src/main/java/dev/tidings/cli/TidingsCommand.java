package dev.tidings.cli;

import dev.tidings.TidingsException;
import dev.tidings.config.ConfigException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line: exit 0 on success, 2 on a usage or configuration error (with a message that says
 * what is wrong), 1 otherwise.
 */
@Command(
    name = "tidings",
    mixinStandardHelpOptions = true,
    versionProvider = TidingsCommand.Version.class,
    description =
        "Personalised newsletters and campaign email: open-time recommendations, delivery KPIs, campaigns.",
    subcommands = {
      ServeCommand.class,
      WorkerCommand.class,
      ImportCommand.class,
      CampaignCommand.class,
      MigrateCommand.class,
      AggregatesCommand.class,
      CommandLine.HelpCommand.class
    })
public final class TidingsCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static int run(String... args) {
    return run(System.getenv(), args);
  }

  /** Runs with {@code environment} in place of the process environment (settings are read from it). */
  public static int run(Map<String, String> environment, String... args) {
    return run(environment, List.of(), args);
  }

  /**
   * Runs with the engine's commands and {@code more} of a program built on it (the tools' {@code
   * demo}, {@code bench} and {@code evaluate}), each a picocli command class.
   */
  public static int run(Map<String, String> environment, List<Class<?>> more, String... args) {
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine.IFactory factory = new CommandLine.IFactory() {
      @Override
      public <K> K create(Class<K> type) throws Exception {
        K command = defaults.create(type);
        if (command instanceof EnvironmentAware aware) aware.environment(environment);
        return command;
      }
    };
    var commandLine = new CommandLine(new TidingsCommand(), factory);
    for (Class<?> command : more) {
      try {
        commandLine.addSubcommand(new CommandLine(factory.create(command), factory));
      } catch (Exception e) {
        throw new IllegalArgumentException("cannot create the command " + command.getName(), e);
      }
    }
    commandLine.setExecutionExceptionHandler(TidingsCommand::report);
    return commandLine.execute(args);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a command is required (try 'tidings help')");
  }

  private static int report(
      Exception failure, CommandLine commandLine, CommandLine.ParseResult parsed) {
    PrintWriter err = commandLine.getErr();
    switch (failure) {
      case ConfigException config -> {
        err.println("tidings: " + config.getMessage());
        return CommandLine.ExitCode.USAGE;
      }
      case UsageException usage -> {
        err.println("tidings: " + usage.getMessage());
        return CommandLine.ExitCode.USAGE;
      }
      case TidingsException known -> err.println("tidings: " + known.getMessage());
      default -> {
        err.println("tidings: failed: " + failure);
        failure.printStackTrace(err);
      }
    }
    return CommandLine.ExitCode.SOFTWARE;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = TidingsCommand.class.getPackage().getImplementationVersion();
      return new String[] {"tidings " + (version == null ? "development build" : version)};
    }
  }
}
