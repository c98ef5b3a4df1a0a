package dev.tidings.bench;

import dev.tidings.config.Secret;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The open-time slots as mail clients load them, end to end: {@code nodes} Tidings processes ({@code
 * java -jar tidings-tools.jar bench node}) on one Redis and one PostgreSQL, a catalogue and an audience loaded
 * through the API, then every email's {@code slots} image requests fired at once, in random order and
 * round robin over the nodes, from keep-alive connections on virtual threads in this process
 * ({@code emailsInFlight} emails at a time). Each strategy gets nodes of its own ({@code
 * bench node --slots}) and emails no run has seen (a campaign of its own). Computations and
 * fallbacks are the nodes' own counters ({@code /metrics}) over the measured emails; a duplicate is an
 * email whose cards were not {@code slots} distinct cards (ETags) all answered 200.
 */
public final class OpenBurstBench {
  public static final String SECRET = "tidings-open-burst-bench-secret";
  public static final String API_KEY = "tk_open_burst_bench_api_key";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);
  private static final String[] LOCALES = {"de-DE", "en-GB", "fr-FR", "it-IT", "nl-NL"};
  private static final String[] CURRENCIES = {"EUR", "GBP", "EUR", "EUR", "EUR"};

  /** The compute-once strategy a run's nodes use. */
  public enum Strategy {
    TIDINGS,
    SEED;

    public String setting() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What to run; {@code jar} is the Tidings jar the nodes run. */
  public record Options(
      int emails,
      int slots,
      int nodes,
      int emailsInFlight,
      int warmupEmails,
      int products,
      URI redisUrl,
      String databaseUrl,
      Path jar,
      List<String> nodeJvmOptions,
      Path workDirectory) {
    public Options {
      if (emails < 1) throw new IllegalArgumentException("emails must be >= 1");
      if (slots < 1 || slots > MessageToken.MAX_SLOTS)
        throw new IllegalArgumentException("slots must be within 1.." + MessageToken.MAX_SLOTS);
      if (nodes < 1) throw new IllegalArgumentException("nodes must be >= 1");
      if (emailsInFlight < 1) throw new IllegalArgumentException("emailsInFlight must be >= 1");
      if (warmupEmails < 0) throw new IllegalArgumentException("warmupEmails must be >= 0");
      if (products < slots) throw new IllegalArgumentException("products must be >= slots");
      nodeJvmOptions = List.copyOf(nodeJvmOptions);
    }
  }

  /** The figures of one strategy; latencies are of single slot requests. */
  public record Run(
      String strategy,
      int nodes,
      int emails,
      int slots,
      long requests,
      double seconds,
      double requestsPerSecond,
      double p50Millis,
      double p95Millis,
      double p99Millis,
      double maxMillis,
      long computations,
      double computationsPerEmail,
      long duplicates,
      long failedRequests,
      long fallbacks,
      List<Long> heapUsedBytesPerNode,
      double reopenRequestsPerSecond,
      double reopenP50Millis,
      double reopenP99Millis,
      Paced paced) {}

  /**
   * New emails' first opens offered at half the re-open throughput, at a steady pace: latencies from
   * when each email was due, so a node that falls behind is charged for the wait (no coordinated
   * omission).
   */
  public record Paced(
      double offeredRequestsPerSecond,
      double requestsPerSecond,
      double p50Millis,
      double p99Millis,
      double maxMillis,
      double computationsPerEmail,
      long duplicates,
      long failedRequests) {}

  private OpenBurstBench() {}

  /** Creates the database the URL names when it is missing (the nodes migrate it themselves). */
  public static void ensureDatabase(String jdbcUrl) {
    int slash = jdbcUrl.indexOf('/', "jdbc:postgresql://".length());
    if (!jdbcUrl.startsWith("jdbc:postgresql://") || slash < 0)
      throw new IllegalArgumentException(
          "expected jdbc:postgresql://host:port/database, got " + jdbcUrl);
    int query = jdbcUrl.indexOf('?', slash);
    String name = jdbcUrl.substring(slash + 1, query < 0 ? jdbcUrl.length() : query);
    if (!name.matches("[a-z_][a-z0-9_]*"))
      throw new IllegalArgumentException("database name must be [a-z_][a-z0-9_]*: " + name);
    String admin =
        jdbcUrl.substring(0, slash + 1) + "postgres" + (query < 0 ? "" : jdbcUrl.substring(query));
    try (var connection = DriverManager.getConnection(admin);
        var exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
      exists.setString(1, name);
      try (var rows = exists.executeQuery()) {
        if (rows.next()) return;
      }
      try (var create = connection.createStatement()) {
        create.execute("CREATE DATABASE " + name);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot reach or create " + name + ": " + e.getMessage(), e);
    }
  }

  /** Starts the nodes, loads, warms up, measures, and stops every node it started whatever happens. */
  public static Run run(
      Strategy strategy,
      Options options,
      BiFunction<String, Long, Tracker> progress,
      Consumer<String> say) {
    List<NodeProcess> nodes = new ArrayList<>();
    Thread stopper = new Thread(() -> nodes.forEach(NodeProcess::stop));
    Runtime.getRuntime().addShutdownHook(stopper);
    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    HttpClient http = HttpClient.newBuilder()
        .executor(threads)
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
    try {
      int closedPort = freePort();
      for (int i = 0; i < options.nodes(); i++) {
        // the first node migrates the database alone; the others start once it is up
        NodeProcess node = NodeProcess.start(strategy, options, i);
        nodes.add(node);
        if (i == 0) node.awaitHealthy(http);
      }
      for (NodeProcess node : nodes) node.awaitHealthy(http);
      say.accept(strategy.setting() + ": " + nodes.size() + " nodes up on ports "
          + nodes.stream().map(node -> Integer.toString(node.port)).toList());
      load(http, nodes.getFirst(), options, closedPort);
      var codec = TokenCodec.of(new Secret(SECRET));
      long campaign = System.currentTimeMillis() / 1000;
      var burst = new Burst(threads, nodes, options, codec);
      if (options.warmupEmails() > 0) {
        try (Tracker warmup = progress.apply(
            strategy.setting() + " warm-up", (long) options.warmupEmails() * options.slots())) {
          burst.fire(campaign, 2L * strategy.ordinal() + 1, options.warmupEmails(), warmup);
        }
      }
      Map<String, Double> before = scrape(http, nodes);
      Burst.Result result;
      try (Tracker tracker = progress.apply(
          strategy.setting() + " measured", (long) options.emails() * options.slots())) {
        result = burst.fire(campaign, 2L * strategy.ordinal() + 2, options.emails(), tracker);
      }
      Map<String, Double> after = scrape(http, nodes);
      List<Long> heaps = new ArrayList<>();
      for (NodeProcess node : nodes)
        heaps.add((long) metrics(http, node).getOrDefault("heap", 0.0).doubleValue());
      long computed =
          Math.round(after.getOrDefault("computed", 0.0) - before.getOrDefault("computed", 0.0));
      long fallbacks =
          Math.round(after.getOrDefault("fallbacks", 0.0) - before.getOrDefault("fallbacks", 0.0));
      // the same emails opened again: lists in the near cache, cards rendered, nothing computed
      Burst.Result reopen;
      try (Tracker tracker = progress.apply(
          strategy.setting() + " re-open", (long) options.emails() * options.slots())) {
        reopen = burst.fire(campaign, 2L * strategy.ordinal() + 2, options.emails(), tracker);
      }
      long[] again = reopen.latencies();
      Arrays.sort(again);
      double reopenRate = again.length / reopen.seconds();
      // new emails' first opens at half the re-open throughput: the latency a node gives when not
      // saturated
      Map<String, Double> beforePaced = scrape(http, nodes);
      Burst.Result paced;
      double offered = reopenRate / 2;
      try (Tracker tracker = progress.apply(
          strategy.setting() + " paced at half", (long) options.emails() * options.slots())) {
        paced = burst.fire(
            campaign,
            2L * strategy.ordinal() + 101,
            options.emails(),
            tracker,
            offered / options.slots());
      }
      Map<String, Double> afterPaced = scrape(http, nodes);
      long[] steady = paced.latencies();
      Arrays.sort(steady);
      long pacedComputed = Math.round(
          afterPaced.getOrDefault("computed", 0.0) - beforePaced.getOrDefault("computed", 0.0));
      long[] sorted = result.latencies();
      Arrays.sort(sorted);
      long requests = sorted.length;
      return new Run(
          strategy.setting(),
          options.nodes(),
          options.emails(),
          options.slots(),
          requests,
          result.seconds(),
          requests / result.seconds(),
          millis(sorted, 0.50),
          millis(sorted, 0.95),
          millis(sorted, 0.99),
          sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
          computed,
          (double) computed / options.emails(),
          result.duplicates(),
          result.failed(),
          fallbacks,
          List.copyOf(heaps),
          reopenRate,
          millis(again, 0.50),
          millis(again, 0.99),
          new Paced(
              offered,
              steady.length / paced.seconds(),
              millis(steady, 0.50),
              millis(steady, 0.99),
              steady.length == 0 ? 0 : steady[steady.length - 1] / 1e6,
              (double) pacedComputed / options.emails(),
              paced.duplicates(),
              paced.failed()));
    } finally {
      nodes.forEach(NodeProcess::stop);
      try {
        Runtime.getRuntime().removeShutdownHook(stopper);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs anyway
      }
      http.close();
      threads.close();
    }
  }

  private static double millis(long[] sorted, double quantile) {
    if (sorted.length == 0) return 0;
    int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
    return sorted[Math.max(0, index)] / 1e6;
  }

  /** The products (images at a closed port, so cards are drawn without pictures) and subscribers. */
  private static void load(HttpClient http, NodeProcess node, Options options, int closedPort) {
    var products = new StringBuilder();
    for (int i = 0; i < options.products(); i++) {
      int variant = i % LOCALES.length;
      products
          .append("{\"id\":\"bench-p")
          .append(i)
          .append("\",\"title\":\"Bench product ")
          .append(i)
          .append("\",\"brand\":\"Brand ")
          .append(i % 37)
          .append("\",\"category\":\"category-")
          .append(i % 11)
          .append("\",\"price\":")
          .append(10 + i % 90)
          .append(".99,\"currency\":\"")
          .append(CURRENCIES[variant])
          .append("\",\"imageUrl\":\"http://127.0.0.1:")
          .append(closedPort)
          .append("/p")
          .append(i)
          .append(".jpg\",\"landingUrl\":\"https://shop.example/p/")
          .append(i)
          .append("\",\"available\":true}\n");
    }
    post(http, node, "/api/v1/products/import", products.toString());
    int subscribers = Math.max(options.emails(), options.warmupEmails());
    var audience = new StringBuilder();
    for (int i = 0; i < subscribers; i++) {
      audience
          .append("{\"id\":\"bench-s")
          .append(i)
          .append("\",\"email\":\"bench-s")
          .append(i)
          .append("@example.com\",\"locale\":\"")
          .append(LOCALES[i % LOCALES.length])
          .append("\"}\n");
    }
    post(http, node, "/api/v1/subscribers/import", audience.toString());
  }

  private static void post(HttpClient http, NodeProcess node, String path, String jsonLines) {
    var request = HttpRequest.newBuilder(node.base.resolve(path))
        .timeout(Duration.ofMinutes(2))
        .header("Authorization", "Bearer " + API_KEY)
        .header("Content-Type", "application/x-ndjson")
        .POST(HttpRequest.BodyPublishers.ofString(jsonLines, StandardCharsets.UTF_8))
        .build();
    HttpResponse<String> response = send(http, request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200)
      throw new IllegalStateException(
          "POST " + path + " answered " + response.statusCode() + ": " + response.body());
  }

  /** Sums of the nodes' counters: computed lists, fallbacks. */
  private static Map<String, Double> scrape(HttpClient http, List<NodeProcess> nodes) {
    Map<String, Double> sums = new HashMap<>(Map.of("computed", 0.0, "fallbacks", 0.0));
    for (NodeProcess node : nodes)
      metrics(http, node).forEach((name, value) -> sums.merge(name, value, Double::sum));
    return sums;
  }

  private static Map<String, Double> metrics(HttpClient http, NodeProcess node) {
    var request = HttpRequest.newBuilder(node.base.resolve("/metrics"))
        .header("Authorization", "Bearer " + API_KEY)
        .timeout(REQUEST_TIMEOUT)
        .build();
    String text = send(http, request, HttpResponse.BodyHandlers.ofString()).body();
    Map<String, Double> found = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("#")) continue;
      String name;
      if (line.startsWith("tidings_opentime_computed_total")) name = "computed";
      else if (line.startsWith("tidings_opentime_fallbacks_total")) name = "fallbacks";
      else if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\""))
        name = "heap";
      else continue;
      double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      found.merge(name, value, Double::sum);
    }
    return found;
  }

  private static <T> HttpResponse<T> send(
      HttpClient http, HttpRequest request, HttpResponse.BodyHandler<T> body) {
    try {
      return http.send(request, body);
    } catch (IOException e) {
      throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  static int freePort() {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  /** Fires emails' slot requests: {@code emailsInFlight} emails at once, each email's all at once. */
  private static final class Burst {
    record Result(long[] latencies, double seconds, long duplicates, long failed) {}

    private final ExecutorService threads;
    private final List<NodeProcess> nodes;
    private final Options options;
    private final TokenCodec codec;

    Burst(ExecutorService threads, List<NodeProcess> nodes, Options options, TokenCodec codec) {
      this.threads = threads;
      this.nodes = nodes;
      this.options = options;
      this.codec = codec;
    }

    /**
     * {@code emailsInFlight} lanes, each with one keep-alive connection per slot (round robin over the
     * nodes): a lane writes all k requests of its email, in random slot order, then reads the k
     * answers. A slot's latency runs from its own write until its answer is read, and answers are read
     * in the order they were asked for, so a slot answered before an earlier-asked slow one is
     * reported as late as that one: the latencies are upper bounds.
     */
    Result fire(long campaign, long runId, int emails, Tracker tracker) {
      return fire(campaign, runId, emails, tracker, 0);
    }

    /** As above, each email due {@code 1 / emailsPerSecond} after the one before (0: at once). */
    Result fire(long campaign, long runId, int emails, Tracker tracker, double emailsPerSecond) {
      int k = options.slots();
      Instant issued = Instant.now();
      String[] tokens = new String[emails];
      for (int e = 0; e < emails; e++)
        tokens[e] = codec.encode(new MessageToken(
            new MessageId(campaign, runId, "bench-s" + e),
            issued,
            k,
            0,
            Optional.of(Locale.forLanguageTag(LOCALES[e % LOCALES.length]))));
      long[] latencies = new long[emails * k];
      LongAdder duplicates = new LongAdder();
      LongAdder failed = new LongAdder();
      LongAdder done = new LongAdder();
      AtomicInteger next = new AtomicInteger();
      int lanes = Math.min(options.emailsInFlight(), emails);
      List<Future<?>> running = new ArrayList<>(lanes);
      long started = System.nanoTime();
      for (int lane = 0; lane < lanes; lane++) {
        int laneIndex = lane;
        running.add(threads.submit(() -> {
          runLane(
              laneIndex,
              runId,
              tokens,
              latencies,
              next,
              duplicates,
              failed,
              done,
              tracker,
              started,
              emailsPerSecond);
          return null;
        }));
      }
      for (Future<?> lane : running) {
        try {
          lane.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
          throw new IllegalStateException("a load lane failed: " + e.getCause(), e.getCause());
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      return new Result(latencies, seconds, duplicates.sum(), failed.sum());
    }

    private void runLane(
        int lane,
        long runId,
        String[] tokens,
        long[] latencies,
        AtomicInteger next,
        LongAdder duplicates,
        LongAdder failed,
        LongAdder done,
        Tracker tracker,
        long started,
        double emailsPerSecond)
        throws IOException {
      int k = options.slots();
      var connections = new KeepAliveConnection[k];
      try {
        for (int j = 0; j < k; j++) {
          NodeProcess node = nodes.get((lane * k + j) % nodes.size());
          connections[j] =
              new KeepAliveConnection("127.0.0.1", node.port, (int) REQUEST_TIMEOUT.toMillis());
        }
        var random = new Random(runId * 1_000_003L + lane);
        long[] sent = new long[k];
        var etags = new HashSet<String>();
        for (int email = next.getAndIncrement();
            email < tokens.length;
            email = next.getAndIncrement()) {
          int[] order = shuffled(k, random);
          boolean[] broken = new boolean[k];
          long due = emailsPerSecond > 0 ? started + (long) (email * 1e9 / emailsPerSecond) : 0;
          if (due > 0) {
            long wait = due - System.nanoTime();
            if (wait > 0) LockSupport.parkNanos(wait);
          }
          for (int j = 0; j < k; j++) {
            sent[j] = due > 0 ? due : System.nanoTime();
            try {
              connections[j].send("/o/" + tokens[email] + "/" + order[j]);
            } catch (IOException e) {
              broken[j] = true;
            }
          }
          etags.clear();
          boolean allOk = true;
          for (int j = 0; j < k; j++) {
            int slot = order[j];
            if (!broken[j]) {
              try {
                KeepAliveConnection.Answer answer = connections[j].read();
                latencies[email * k + slot] = System.nanoTime() - sent[j];
                if (answer.status() == 200) {
                  if (!answer.etag().isEmpty()) etags.add(answer.etag());
                  continue;
                }
              } catch (IOException | RuntimeException e) {
                broken[j] = true;
              }
            }
            latencies[email * k + slot] = System.nanoTime() - sent[j];
            failed.increment();
            allOk = false;
            if (broken[j]) connections[j].reconnect();
          }
          if (!allOk || etags.size() != k) duplicates.increment();
          done.add(k);
          tracker.stepTo(done.sum());
        }
      } finally {
        for (KeepAliveConnection connection : connections)
          if (connection != null) connection.close();
      }
    }

    private static int[] shuffled(int k, Random random) {
      int[] order = new int[k];
      for (int i = 0; i < k; i++) order[i] = i;
      for (int i = k - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        int swap = order[i];
        order[i] = order[j];
        order[j] = swap;
      }
      return order;
    }
  }

  /** One {@code tidings serve} process, its output in a log file of its own. */
  private static final class NodeProcess {
    final Process process;
    final int port;
    final URI base;
    final Path log;

    private NodeProcess(Process process, int port, Path log) {
      this.process = process;
      this.port = port;
      this.base = URI.create("http://127.0.0.1:" + port);
      this.log = log;
    }

    static NodeProcess start(Strategy strategy, Options options, int index) {
      int port = freePort();
      Path dataDir = options.workDirectory().resolve(strategy.setting() + "-node-" + index);
      Path log = options.workDirectory().resolve(strategy.setting() + "-node-" + index + ".log");
      try {
        Files.createDirectories(dataDir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(List.of(
          "-XX:+UseG1GC",
          "-XX:MaxRAMPercentage=25",
          "-XX:+ExitOnOutOfMemoryError",
          "--enable-native-access=ALL-UNNAMED"));
      for (String option : options.nodeJvmOptions())
        command.add(option.replace("{node}", strategy.setting() + "-node-" + index));
      command.addAll(List.of(
          "-jar", options.jar().toString(), "bench", "node", "--slots", strategy.setting()));
      var builder = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .directory(options.workDirectory().toFile());
      Map<String, String> environment = builder.environment();
      environment.keySet().removeIf(name -> name.startsWith("TIDINGS_"));
      environment.remove("JAVA_TOOL_OPTIONS");
      environment.put("TIDINGS_PORT", Integer.toString(port));
      environment.put("TIDINGS_DATA_DIR", dataDir.toString());
      environment.put("TIDINGS_DB_URL", options.databaseUrl());
      environment.put("TIDINGS_REDIS_URL", options.redisUrl().toString());
      environment.put("TIDINGS_SECRET", SECRET);
      environment.put("TIDINGS_API_KEY", API_KEY);
      environment.put("TIDINGS_LOG_FORMAT", "json");
      try {
        return new NodeProcess(builder.start(), port, log);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + String.join(" ", command), e);
      }
    }

    void awaitHealthy(HttpClient http) {
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      var request = HttpRequest.newBuilder(base.resolve("/health"))
          .timeout(Duration.ofSeconds(2))
          .build();
      while (System.nanoTime() < deadline) {
        if (!process.isAlive())
          throw new IllegalStateException(
              "node on port " + port + " exited with " + process.exitValue() + "; see " + log);
        try {
          if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200)
            return;
        } catch (IOException notYet) {
          // not listening yet
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        }
      }
      throw new IllegalStateException(
          "node on port " + port + " not healthy after " + START_TIMEOUT + "; see " + log);
    }

    void stop() {
      if (!process.isAlive()) return;
      process.destroy();
      try {
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
