package dev.tidings.tools;

import dev.tidings.app.NodeAdditions;
import dev.tidings.app.Role;
import dev.tidings.bench.SeedLiteralComputeOnce;
import dev.tidings.bench.SyntheticComposer;
import dev.tidings.cli.NodeCommand;
import dev.tidings.cli.UsageException;
import dev.tidings.config.Settings;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A node as benchmarks and crash tests start it in a process of their own: {@code serve} or {@code
 * worker} with a benchmark's stand-ins (seed 01's literal compute-once for the open-time slots, the
 * synthetic composer for the send consumers). Hidden: it is no command for a shop.
 */
@Command(
    name = "node",
    hidden = true,
    mixinStandardHelpOptions = true,
    description = "Run a node with a benchmark's stand-ins, until it is stopped.")
final class BenchNodeCommand extends NodeCommand {
  private static final String SEED_KEY_PREFIX = "tidings:seed:";

  @Option(names = "--role", description = "serve or worker (default ${DEFAULT-VALUE})")
  String role = "serve";

  @Option(
      names = "--slots",
      description =
          "how the open-time slots are computed once: tidings (the node's coordination) or"
              + " seed (seed 01's literal Redis commands on TIDINGS_REDIS_URL); default ${DEFAULT-VALUE}")
  String slots = "tidings";

  @Option(
      names = "--synthetic-emails",
      description = "send consumers write synthetic emails instead of the campaigns'")
  boolean syntheticEmails;

  @Override
  protected Role role() {
    return switch (role.toLowerCase(Locale.ROOT)) {
      case "serve" -> Role.SERVE;
      case "worker" -> Role.WORKER;
      default -> throw new UsageException("--role must be serve or worker but was " + role);
    };
  }

  @Override
  protected NodeAdditions additions(Settings settings) {
    var additions = NodeAdditions.NONE;
    switch (slots.toLowerCase(Locale.ROOT)) {
      case "tidings" -> {}
      case "seed" -> {
        var redisUrl = settings
            .redisUrl()
            .orElseThrow(() -> new UsageException("--slots seed needs TIDINGS_REDIS_URL"));
        additions = additions.withSlotComputeOnce(infrastructure ->
            infrastructure.open(() -> SeedLiteralComputeOnce.connect(redisUrl, SEED_KEY_PREFIX)));
      }
      default -> throw new UsageException("--slots must be tidings or seed but was " + slots);
    }
    return syntheticEmails ? additions.withComposer(new SyntheticComposer()) : additions;
  }
}
