package dev.tidings.tools;

import dev.tidings.app.Logging;
import dev.tidings.bench.QueueBench;
import dev.tidings.bench.Tracker;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.config.Settings;
import dev.tidings.queue.WorkQueue;
import dev.tidings.storage.Database;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "queue",
    mixinStandardHelpOptions = true,
    description = {
      "Work queues: messages/s published (one per call, and in batches), consumed (one message per"
          + " handler call, and in batches) and publish through consume, through the WorkQueue port, on"
          + " queue tables in PostgreSQL and on RabbitMQ.",
      "Queue tables also publish the way they did before (a NOTIFY in every publish's transaction).",
      "Uses --database-url, else TIDINGS_DB_URL (in a schema of its own, dropped afterwards), else a"
          + " fresh embedded PostgreSQL."
    })
final class QueueBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--messages",
      defaultValue = "100000",
      description = "messages per phase (default ${DEFAULT-VALUE})")
  int messages;

  @Option(
      names = "--body-bytes",
      defaultValue = "256",
      description = "bytes per message body (default ${DEFAULT-VALUE})")
  int bodyBytes;

  @Option(
      names = "--batch",
      defaultValue = "100",
      description =
          "messages per publishAll call and per consumed batch (default ${DEFAULT-VALUE})")
  int batch;

  @Option(
      names = "--publishers",
      defaultValue = "8",
      description = "concurrent publishers, each a virtual thread (default ${DEFAULT-VALUE})")
  int publishers;

  @Option(
      names = "--consumers",
      defaultValue = "4",
      description = "consumers per subscription (default ${DEFAULT-VALUE})")
  int consumers;

  @Option(
      names = "--prefetch",
      defaultValue = "10",
      description = "unsettled messages per consumer of subscribe (default ${DEFAULT-VALUE})")
  int prefetch;

  @Option(
      names = "--database-url",
      description =
          "JDBC URL of the PostgreSQL to use instead of TIDINGS_DB_URL or an embedded one")
  @Nullable String databaseUrl;

  @Option(
      names = "--amqp-url",
      defaultValue = "amqp://guest:guest@127.0.0.1:5672",
      description = "RabbitMQ to measure (default ${DEFAULT-VALUE})")
  URI amqpUrl = URI.create("amqp://guest:guest@127.0.0.1:5672");

  @Option(names = "--skip-rabbitmq", description = "measure the queue tables only")
  boolean skipRabbitMq;

  @Option(names = "--skip-postgres", description = "measure RabbitMQ only")
  boolean skipPostgres;

  @Override
  public Integer call() throws IOException {
    var options =
        new QueueBench.Options(messages, bodyBytes, batch, publishers, consumers, prefetch);
    Settings settings = settings(overrides());
    Logging.configure(settings.logFormat());
    System.out.printf(
        "%d messages of %d bytes per phase, batches of %d, %d publishers, %d consumers%n",
        messages, bodyBytes, batch, publishers, consumers);
    if (!skipPostgres) {
      try (var scratch = ScratchDirectory.create("tidings-bench-queue");
          var throwaway = ThrowawayDatabase.open(settings, scratch.path(), connections())) {
        System.out.println("queue tables: " + throwaway.database().describe());
        QueueBench.run(queueTables(throwaway.database()), options, this::progress, System.out);
      }
    }
    if (!skipRabbitMq) {
      if (reachable(amqpUrl)) {
        System.out.println("rabbitmq: " + amqpUrl.getHost() + ":" + port(amqpUrl));
        QueueBench.run(rabbitMq(), options, this::progress, System.out);
      } else {
        System.out.println("rabbitmq: skipped, nothing listens at " + amqpUrl.getHost() + ":"
            + port(amqpUrl) + " (--amqp-url)");
      }
    }
    return 0;
  }

  /** Enough connections that publishers and consumers never wait for the pool. */
  private int connections() {
    return publishers + 2 * consumers + 8;
  }

  private Map<String, String> overrides() {
    Map<String, String> overrides = new HashMap<>();
    if (databaseUrl != null) overrides.put("TIDINGS_DB_URL", databaseUrl);
    if (!environment().containsKey("TIDINGS_DB_POOL_SIZE"))
      overrides.put("TIDINGS_DB_POOL_SIZE", Integer.toString(connections()));
    return overrides;
  }

  private static QueueBench.Backend queueTables(Database database) {
    return new QueueBench.Backend() {
      @Override
      public String name() {
        return "tables";
      }

      @Override
      public WorkQueue open() {
        return ThrowawayQueues.queueTables(database);
      }

      @Override
      public Optional<QueueBench.Baseline> baseline() {
        return Optional.of(new QueueBench.Baseline(
            "NOTIFY per publish, as before",
            backend -> ThrowawayQueues.queueTablesNotifyingEveryPublish(database)));
      }
    };
  }

  private QueueBench.Backend rabbitMq() {
    return new QueueBench.Backend() {
      @Override
      public String name() {
        return "rabbitmq";
      }

      @Override
      public WorkQueue open() {
        return ThrowawayQueues.rabbitMq(amqpUrl);
      }
    };
  }

  private static boolean reachable(URI uri) {
    try (var socket = new Socket()) {
      socket.connect(new InetSocketAddress(uri.getHost(), port(uri)), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int port(URI uri) {
    return uri.getPort() < 0 ? 5672 : uri.getPort();
  }

  private Tracker progress(String task) {
    return ProgressTracker.of(task, messages, "messages");
  }
}
