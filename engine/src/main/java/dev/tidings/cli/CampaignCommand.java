package dev.tidings.cli;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.app.CampaignWiring;
import dev.tidings.app.Logging;
import dev.tidings.app.Node;
import dev.tidings.app.Role;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignDefinition;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.CampaignView;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.campaign.send.SendState;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tidings campaign ...}: the campaign life cycle from a terminal, on the configured database
 * (a local node, as {@code tidings import} runs one).
 */
@Command(
    name = "campaign",
    mixinStandardHelpOptions = true,
    description =
        "Campaigns: create, list, show (alias status), send with a progress bar, pause, resume, cancel.",
    subcommands = {
      CampaignCommand.Create.class,
      CampaignCommand.ListCampaigns.class,
      CampaignCommand.Show.class,
      CampaignCommand.Send.class,
      CampaignCommand.Pause.class,
      CampaignCommand.Resume.class,
      CampaignCommand.Cancel.class
    })
final class CampaignCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "a subcommand is required: create, list, show, status, send, pause, resume or cancel");
  }

  /** Runs {@code work} on a local node's campaign service. */
  abstract static class OnNode extends EnvironmentAware implements Callable<Integer> {
    final <T> T withCampaigns(Function<CampaignService, T> work) {
      return withCampaigns(false, work);
    }

    /**
     * With {@code working}, this process also consumes the queues as a worker (health on an ephemeral
     * port) while {@code work} runs: a send that waits for its run then finishes even when no other
     * node works the queue (the embedded default, whose database only this process can open).
     */
    final <T> T withCampaigns(boolean working, Function<CampaignService, T> work) {
      var settings = settings();
      Logging.configure(settings.logFormat());
      try (var node = Node.of(settings)) {
        if (working) node.start(Role.WORKER, 0);
        return work.apply(node.capability(CampaignWiring.class).campaigns());
      }
    }
  }

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = {
        "Create a campaign from a JSON file (the API's format, docs in README) or from options;",
        "options given next to a file replace the file's fields. Prints the new campaign's id."
      })
  static final class Create extends OnNode {
    @Option(names = "--file", description = "a campaign as JSON")
    @Nullable Path file;

    @Option(names = "--name")
    @Nullable String name;

    @Option(names = "--from", description = "sender address")
    @Nullable String from;

    @Option(names = "--from-name", description = "sender display name")
    @Nullable String fromName;

    @Option(names = "--reply-to")
    @Nullable String replyTo;

    @Option(names = "--subject")
    @Nullable String subject;

    @Option(names = "--html", description = "file with the HTML template")
    @Nullable Path html;

    @Option(names = "--text", description = "file with the text template")
    @Nullable Path text;

    @Option(names = "--slots", description = "open-time product slots, 0..12")
    @Nullable Integer slots;

    @Option(names = "--priority", description = "0..9")
    @Nullable Integer priority;

    @Option(names = "--rate", description = "emails per second")
    @Nullable Double rate;

    @Option(names = "--schedule", description = "start time, e.g. 2026-12-01T09:00:00Z")
    @Nullable String schedule;

    @Override
    public Integer call() throws IOException {
      ObjectNode json = file != null ? readObject(file) : Json.MAPPER.createObjectNode();
      if (name != null) json.put("name", name);
      if (from != null) {
        ObjectNode sender = Json.MAPPER.createObjectNode().put("email", from);
        if (fromName != null) sender.put("name", fromName);
        json.set("from", sender);
      }
      if (replyTo != null) json.put("replyTo", replyTo);
      if (subject != null) json.put("subject", subject);
      if (html != null) json.put("html", read(html));
      if (text != null) json.put("text", read(text));
      if (slots != null) json.put("slots", slots);
      if (priority != null) json.put("priority", priority);
      if (rate != null) json.put("ratePerSecond", rate);
      if (schedule != null) json.put("scheduledAt", schedule);
      CampaignDefinition definition;
      try {
        definition = CampaignJson.fromJson(json);
      } catch (InvalidInputException e) {
        throw new UsageException("the campaign is not valid: " + String.join("; ", e.problems()));
      }
      Campaign created = withCampaigns(campaigns -> campaigns.create(definition));
      System.out.printf(
          Locale.ROOT,
          "created campaign %d (%s) %s%n",
          created.id(),
          created.state(),
          definition.name());
      return 0;
    }

    private static ObjectNode readObject(Path path) throws IOException {
      if (!(Json.MAPPER.readTree(read(path)) instanceof ObjectNode object))
        throw new UsageException(path + " must hold a JSON object");
      return object;
    }

    private static String read(Path path) throws IOException {
      if (!Files.isRegularFile(path)) throw new UsageException("no such file: " + path);
      return Files.readString(path);
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List campaigns, newest first.")
  static final class ListCampaigns extends OnNode {
    @Option(
        names = "--limit",
        defaultValue = "50",
        description = "at most this many (default ${DEFAULT-VALUE})")
    int limit;

    @Override
    public Integer call() {
      if (limit < 1 || limit > 1000) throw new UsageException("--limit must be within 1..1000");
      withCampaigns(campaigns -> {
        for (Campaign campaign : campaigns.list(Optional.empty(), limit))
          System.out.println(line(campaigns.view(campaign)));
        return 0;
      });
      return 0;
    }
  }

  @Command(
      name = "show",
      aliases = "status",
      mixinStandardHelpOptions = true,
      description = "A campaign's state and, once sending, its numbers.")
  static final class Show extends OnNode {
    @Parameters(index = "0", description = "campaign id")
    long id;

    @Override
    public Integer call() {
      CampaignView view = withCampaigns(campaigns -> campaigns.view(id))
          .orElseThrow(() -> new UsageException("no campaign with id " + id));
      System.out.println(line(view));
      view.progress().ifPresent(progress -> System.out.println("  " + numbers(progress)));
      return 0;
    }
  }

  @Command(
      name = "send",
      mixinStandardHelpOptions = true,
      description =
          "Start sending now and show progress (sent/total, rate, ETA) until the run is finished.")
  static final class Send extends OnNode {
    @Parameters(index = "0", description = "campaign id")
    long id;

    @Option(names = "--no-wait", description = "start the run and return at once")
    boolean noWait;

    @Override
    public Integer call() {
      return withCampaigns(!noWait, campaigns -> {
        SendProgress started = campaigns.send(id);
        System.out.printf(
            Locale.ROOT,
            "campaign %d: run %d started, %,d recipients planned%n",
            id,
            started.job().runId(),
            started.planned());
        if (noWait) return 0;
        SendProgress last = follow(campaigns, started, System.err);
        System.out.println(numbers(last));
        return last.state() == SendState.COMPLETED ? 0 : 1;
      });
    }

    private SendProgress follow(CampaignService campaigns, SendProgress started, PrintStream err) {
      SendProgress last = started;
      try (var bar = Progress.of("campaign " + id, started.planned(), "emails")) {
        while (!last.state().finished()) {
          bar.stepTo(last.done());
          try {
            Thread.sleep(Duration.ofMillis(500));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("stopped watching; the run goes on");
            return last;
          }
          last = campaigns.view(id).flatMap(CampaignView::progress).orElse(last);
        }
        bar.stepTo(last.done());
      }
      return last;
    }
  }

  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description = "Pause a running campaign.")
  static final class Pause extends OnNode {
    @Parameters(index = "0", description = "campaign id")
    long id;

    @Override
    public Integer call() {
      withCampaigns(campaigns -> {
        campaigns.pause(id);
        return 0;
      });
      System.out.println("campaign " + id + " paused");
      return 0;
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resume a paused campaign.")
  static final class Resume extends OnNode {
    @Parameters(index = "0", description = "campaign id")
    long id;

    @Override
    public Integer call() {
      withCampaigns(campaigns -> {
        campaigns.resume(id);
        return 0;
      });
      System.out.println("campaign " + id + " resumed");
      return 0;
    }
  }

  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description = "Cancel a scheduled, running or paused campaign; nothing more of it is sent.")
  static final class Cancel extends OnNode {
    @Parameters(index = "0", description = "campaign id")
    long id;

    @Override
    public Integer call() {
      withCampaigns(campaigns -> {
        campaigns.cancel(id);
        return 0;
      });
      System.out.println("campaign " + id + " cancelled");
      return 0;
    }
  }

  static String line(CampaignView view) {
    var definition = view.campaign().definition();
    return String.format(
        Locale.ROOT,
        "%6d  %-22s %s  slots=%d priority=%d rate=%s/s%s",
        view.campaign().id(),
        view.state(),
        definition.name(),
        definition.slots(),
        definition.priority(),
        definition.ratePerSecond(),
        definition.scheduledAt().map(at -> " scheduled " + at).orElse(""));
  }

  static String numbers(SendProgress p) {
    return String.format(
        Locale.ROOT,
        "run %d %s: %,d of %,d done (sent %,d, failed %,d, unknown %,d, skipped %,d), %.0f emails/s",
        p.job().runId(),
        p.state(),
        p.done(),
        p.planned(),
        p.sent(),
        p.failed(),
        p.unknown(),
        p.skipped(),
        p.recentPerSecond());
  }
}
