package dev.tidings.tools;

import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Benchmarks: each prints its figures next to the seed's (or the floor's) approach, measured in the same run.",
    subcommands = {
      ImportBenchCommand.class,
      EventBenchCommand.class,
      ActivityBenchCommand.class,
      FanoutBenchCommand.class,
      ComputeOnceBenchCommand.class,
      QueueBenchCommand.class,
      OpenBurstBenchCommand.class,
      RenderBenchCommand.class,
      SendBenchCommand.class,
      SendTimeBenchCommand.class,
      DeliveryBenchCommand.class,
      EventRelayBenchCommand.class,
      JourneyBenchCommand.class,
      RecommendBenchCommand.class,
      OptimizeBenchCommand.class,
      RetentionBenchCommand.class,
      StartupBenchCommand.class,
      AotTrainCommand.class,
      BenchNodeCommand.class
    })
final class BenchCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "a scenario is required: import, events, compute-once, queue, open-burst, render, send, send-time, delivery, event-relay, journeys, recommend, optimize, retention or startup");
  }
}
