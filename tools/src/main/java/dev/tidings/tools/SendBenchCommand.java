package dev.tidings.tools;

import dev.tidings.app.Infrastructure;
import dev.tidings.app.Logging;
import dev.tidings.bench.DiscardSmtpServer;
import dev.tidings.bench.SendBench;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import dev.tidings.config.Settings;
import dev.tidings.events.EventOutbox;
import dev.tidings.storage.Database;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "send",
    mixinStandardHelpOptions = true,
    description = {
      "A campaign run end to end: plan the audience into the ledger, queue its partitions, and let"
          + " workers render and send every email over SMTP to a local server that discards them.",
      "Backends: embedded (a fresh embedded PostgreSQL with queue tables and in-process"
          + " coordination) and real (RabbitMQ + Redis + PostgreSQL on this machine, in a"
          + " throwaway database). Also the same emails sent directly, without the pipeline.",
      "Each backend runs twice: with events out off (a run's hand-over and completion not told)"
          + " and on (told, with the relay and the funnel's listeners running beside it)."
    })
final class SendBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--subscribers",
      defaultValue = "100000",
      description = "recipients (default ${DEFAULT-VALUE})")
  int subscribers;

  @Option(
      names = "--slots",
      defaultValue = "6",
      description = "partitions worked at once (default ${DEFAULT-VALUE})")
  int slots;

  @Option(
      names = "--senders",
      defaultValue = "4",
      description = "emails in flight per slot (default ${DEFAULT-VALUE})")
  int senders;

  @Option(
      names = "--chunk",
      defaultValue = "100",
      description = "recipients claimed and marked together (default ${DEFAULT-VALUE})")
  int chunk;

  @Option(
      names = "--partition-size",
      defaultValue = "1000",
      description = "recipients per partition (default ${DEFAULT-VALUE})")
  int partitionSize;

  @Option(
      names = "--backend",
      defaultValue = "both",
      description = "embedded, real or both (default ${DEFAULT-VALUE})")
  String backend = "both";

  @Option(
      names = "--database-url",
      defaultValue = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres",
      description =
          "a PostgreSQL database the real backend may create its throwaway database from (default ${DEFAULT-VALUE})")
  String adminUrl = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";

  @Option(names = "--redis-url", defaultValue = "redis://127.0.0.1:6379")
  String redisUrl = "redis://127.0.0.1:6379";

  @Option(names = "--amqp-url", defaultValue = "amqp://guest:guest@127.0.0.1:5672")
  String amqpUrl = "amqp://guest:guest@127.0.0.1:5672";

  private boolean warmedUp;

  @Override
  public Integer call() throws Exception {
    String which = backend.toLowerCase(Locale.ROOT);
    if (!List.of("embedded", "real", "both").contains(which))
      throw new UsageException("--backend must be embedded, real or both, not " + backend);
    if (subscribers < 1 || slots < 1 || senders < 1 || chunk < 1 || partitionSize < 1)
      throw new UsageException(
          "--subscribers, --slots, --senders, --chunk and --partition-size must be at least 1");
    Logging.configure(Settings.LogFormat.TEXT);
    var options = new SendBench.Options(subscribers, slots, senders, chunk, partitionSize);
    var results = new ArrayList<SendBench.Result>();
    System.out.printf(
        "%,d recipients, %d slots x %d senders, chunks of %d, partitions of %d; load average %.2f%n",
        subscribers,
        slots,
        senders,
        chunk,
        partitionSize,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    try (var smtp = DiscardSmtpServer.start()) {
      String smtpUrl = "smtp://127.0.0.1:" + smtp.port() + "?pool=" + Math.min(64, slots * senders);
      if (!which.equals("real")) results.add(embedded(options, smtp, smtpUrl, results));
      if (!which.equals("embedded")) results.add(real(options, smtp, smtpUrl, results));
    }
    System.out.println();
    System.out.printf(
        "%-30s %10s %9s %10s %12s %10s %6s%n",
        "backend", "emails", "plan s", "total s", "emails/s", "render us", "heap MB");
    for (var result : results) {
      System.out.printf(
          "%-30s %,10d %9.2f %10.2f %,12.0f %10.1f %6d%n",
          result.backend(),
          result.emails(),
          result.planSeconds(),
          result.totalSeconds(),
          result.perSecond(),
          result.renderMicros(),
          result.peakHeapBytes() >> 20);
    }
    System.out.printf(
        "load average after: %.2f%n",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    return 0;
  }

  private SendBench.Result embedded(
      SendBench.Options options,
      DiscardSmtpServer smtp,
      String smtpUrl,
      List<SendBench.Result> results)
      throws IOException, InterruptedException {
    try (var scratch = ScratchDirectory.create("tidings-bench-send")) {
      var environment = new HashMap<String, String>();
      environment.put("TIDINGS_DATA_DIR", scratch.path().toString());
      environment.put("TIDINGS_SMTP_URL", smtpUrl);
      environment.put("TIDINGS_DB_POOL_SIZE", Integer.toString(slots * 2 + 8));
      try (var node = new Infrastructure(settings(environment))) {
        var backendPieces = new SendBench.Backend(
            "embedded", node.database().jdbi(), node.workQueue(), node.coordination(), node.mail());
        results.add(eventsOff(backendPieces, options, smtp));
        results.add(eventsOn(backendPieces, node.database(), options, smtp));
        return SendBench.direct(node.mail(), options, smtp);
      }
    }
  }

  /**
   * The run with events out off: no hand-over or completion told, nothing relayed. The command's first
   * run follows an unreported warm-up run, so that the JIT's first minute does not fall on the
   * events-off figure alone.
   */
  private SendBench.Result eventsOff(
      SendBench.Backend backend, SendBench.Options options, DiscardSmtpServer smtp)
      throws InterruptedException {
    if (!warmedUp) {
      var warmUp = options.withSubscribers(Math.min(options.subscribers(), 30_000));
      SendBench.run(
          backend.named("warm-up (not reported)"), warmUp, EventOutbox.OFF, smtp, System.out);
      warmedUp = true;
    }
    return SendBench.run(
        backend.named(backend.name() + ", events off"), options, EventOutbox.OFF, smtp, System.out);
  }

  /**
   * The run as a worker node makes it: events told, and the relay and the funnel's listeners running
   * beside the send on the same database and cores.
   */
  private static SendBench.Result eventsOn(
      SendBench.Backend backend,
      Database database,
      SendBench.Options options,
      DiscardSmtpServer smtp)
      throws InterruptedException {
    try (var events = BenchEventsOut.start(database, BenchEventsOut.funnelListeners(database))) {
      return SendBench.run(backend, options, EventOutbox.ON, smtp, System.out);
    }
  }

  private SendBench.Result real(
      SendBench.Options options,
      DiscardSmtpServer smtp,
      String smtpUrl,
      List<SendBench.Result> results)
      throws IOException, InterruptedException, SQLException {
    String database = "tidings_bench_send_" + UUID.randomUUID().toString().substring(0, 8);
    try (var connection = DriverManager.getConnection(adminUrl);
        var statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + database);
    }
    Path dataDir = Files.createTempDirectory("tidings-bench-send-real");
    try {
      Map<String, String> environment = new HashMap<>();
      environment.put("TIDINGS_DATA_DIR", dataDir.toString());
      environment.put(
          "TIDINGS_DB_URL", adminUrl.replaceFirst("/[^/?]+(\\?|$)", "/" + database + "$1"));
      environment.put("TIDINGS_REDIS_URL", redisUrl);
      environment.put("TIDINGS_AMQP_URL", amqpUrl);
      environment.put("TIDINGS_SMTP_URL", smtpUrl);
      environment.put("TIDINGS_DB_POOL_SIZE", Integer.toString(slots * 2 + 8));
      try (var node = new Infrastructure(settings(environment))) {
        var backendPieces = new SendBench.Backend(
            "rabbitmq+redis+pg",
            node.database().jdbi(),
            node.workQueue(),
            node.coordination(),
            node.mail());
        results.add(eventsOff(backendPieces, options, smtp));
        return eventsOn(backendPieces, node.database(), options, smtp);
      }
    } finally {
      try (var connection = DriverManager.getConnection(adminUrl);
          var statement = connection.createStatement()) {
        statement.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
      }
    }
  }
}
