package dev.tidings.bench;

import dev.tidings.Json;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.ReceiptStore;
import dev.tidings.events.EventOutbox;
import dev.tidings.message.MessageId;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;

/**
 * Seed 02's load test, end to end and queue to database: a million receipts in batches of a thousand for a hundred
 * thousand messages (each SENT; about 70% DELIVERED, 20% OPENED, 10% CLICKED, 2% BOUNCED; opens and
 * clicks repeated as readers do; 10% of receipts sent twice; shuffled), applied by several concurrent
 * consumers with real round trips. In the same run: Tidings end to end (posted over HTTP to a node's
 * delivery-events route, queued, consumed into {@link ReceiptStore}) and from the queue alone; the
 * seed's optimistic SQL (a conditional update per receipt, a funnel that counts every receipt); and
 * the seed's first, pessimistic design (per receipt: lock the message, read, compare, write, move the
 * current-status counters), on a smaller share of the load because it is slow. Each design's funnel is
 * compared with a sequential oracle.
 */
public final class DeliveryBench {
  /** The ways receipts are applied; a run measures those it is asked for, in this order. */
  public enum Way {
    /** Posted to the delivery-events route, queued, consumed into {@link ReceiptStore}. */
    HTTP,
    /**
     * {@link ReceiptStore} fed directly by the bench's consumers: queue to database, with events out
     * (the outbox, the relay and the funnel's listeners running as on a worker) and without.
     */
    STORE,
    OPTIMISTIC,
    PESSIMISTIC
  }

  public record Options(
      int messages,
      int receipts,
      int batch,
      int consumers,
      int pessimisticReceipts,
      long seed,
      Set<Way> ways,
      int httpClients) {
    public Options {
      if (messages < 1
          || receipts < messages
          || batch < 1
          || consumers < 1
          || pessimisticReceipts < 0
          || httpClients < 1
          || ways.isEmpty())
        throw new IllegalArgumentException("messages >= 1, receipts >= messages, batch >= 1,"
            + " consumers >= 1, pessimisticReceipts >= 0, httpClients >= 1, a way at least");
      ways = Set.copyOf(ways);
    }

    /** The same run on a {@code divisor}th of the messages and their receipts. */
    Options fraction(int divisor) {
      int fewer = Math.max(1, messages / divisor);
      return new Options(
          fewer,
          Math.max(fewer, receipts / divisor),
          batch,
          consumers,
          pessimisticReceipts,
          seed,
          ways,
          httpClients);
    }
  }

  /**
   * The delivery pipeline of a node, served for the HTTP way: the delivery-events route on {@code
   * port} of this host, its receipts queued and applied by consumers into the bench's database.
   * {@code applied} counts the receipts the consumers applied; closing stops the server and the
   * consumers and deletes the queue.
   */
  public interface Pipeline extends AutoCloseable {
    int port();

    String apiKey();

    /** What the queue is: "RabbitMQ" or "queue tables". */
    String queue();

    long applied();

    /** Messages of the pipeline's queue that failed into its dead-letter queue. */
    long deadLetters();

    @Override
    void close();
  }

  /** One design's figures; {@code funnelError} is the sum over steps of |counted - oracle|. */
  public record Design(
      String name, long receipts, double seconds, double receiptsPerSecond, long funnelError) {
    /** Runs of one way as one: receipts and seconds each run's mean, the largest funnel error. */
    static Design together(List<Design> runs) {
      double seconds = runs.stream().mapToDouble(Design::seconds).sum();
      long receipts = runs.stream().mapToLong(Design::receipts).sum();
      return new Design(
          runs.getFirst().name(),
          receipts / runs.size(),
          seconds / runs.size(),
          receipts / seconds,
          runs.stream().mapToLong(Design::funnelError).max().orElse(0));
    }
  }

  public record Result(
      int messages, long receipts, int batch, int consumers, List<Design> designs) {}

  private record Workload(
      List<Receipt> receipts, Map<FunnelStep, Long> funnel, Map<String, DeliveryStatus> last) {}

  private static final Instant T0 = Instant.parse("2026-06-01T08:00:00Z");
  /** The seed's design tracks the main line only: the oracle for it counts these. */
  private static final List<DeliveryStatus> SEED_STATUSES = List.of(
      DeliveryStatus.SENT,
      DeliveryStatus.DELIVERED,
      DeliveryStatus.OPENED,
      DeliveryStatus.CLICKED,
      DeliveryStatus.BOUNCED);

  private DeliveryBench() {}

  public static Result run(
      Database database,
      Options options,
      Function<Database, Pipeline> pipeline,
      Function<Database, AutoCloseable> eventsOut,
      BiFunction<String, Long, Tracker> progress,
      PrintStream out) {
    long campaign = System.currentTimeMillis() / 1000;
    Workload load = workload(campaign, options.messages(), options.receipts(), options.seed());
    out.printf(
        "%,d receipts for %,d messages, batches of %,d, %d consumers%n",
        load.receipts().size(), options.messages(), options.batch(), options.consumers());
    List<Design> designs = new ArrayList<>();
    if (options.ways().contains(Way.HTTP)) {
      // the same stories for a campaign of their own, so that both Tidings ways start from nothing
      Workload again =
          workload(campaign + 2, options.messages(), options.receipts(), options.seed());
      try (Pipeline served = pipeline.apply(database);
          AutoCloseable events = eventsOut.apply(database)) {
        out.printf(
            "end to end: %d HTTP clients, queue on %s, events out%n",
            options.httpClients(), served.queue());
        designs.add(endToEnd(database, campaign + 2, again, options, served, progress, out));
      } catch (Exception e) {
        if (e instanceof RuntimeException unchecked) throw unchecked;
        throw new IllegalStateException(e);
      }
      report(out, designs.getLast());
    }
    if (options.ways().contains(Way.STORE)) {
      // Each way once unreported on a fifth of the receipts, so that neither pays alone for the JIT
      // compiling its path (the events' path is compiled only when they are on); then off, on, on,
      // off, each on a campaign of its own, so that the tables growing run by run favour neither.
      Options warmUp = options.fraction(5);
      long warm = campaign + 7;
      for (var events : Arrays.asList(null, eventsOut)) {
        warm++;
        tidings(
            database,
            warm,
            workload(warm, warmUp.messages(), warmUp.receipts(), options.seed()),
            warmUp,
            progress,
            events);
      }
      List<Design> off = new ArrayList<>();
      List<Design> on = new ArrayList<>();
      long next = campaign + 3;
      for (boolean eventsOn : new boolean[] {false, true, true, false}) {
        long runCampaign = eventsOn && on.isEmpty() ? campaign : next++;
        Workload runLoad = runCampaign == campaign
            ? load
            : workload(runCampaign, options.messages(), options.receipts(), options.seed());
        Design run =
            tidings(database, runCampaign, runLoad, options, progress, eventsOn ? eventsOut : null);
        report(out, run);
        (eventsOn ? on : off).add(run);
      }
      designs.add(Design.together(off));
      designs.add(Design.together(on));
      double offRate = designs.get(designs.size() - 2).receiptsPerSecond();
      double onRate = designs.getLast().receiptsPerSecond();
      out.printf(
          Locale.ROOT,
          "events out costs the receipts %.1f%% (%,.0f receipts/s with them, %,.0f without,"
              + " two runs each after a warm-up)%n",
          100 * (1 - onRate / offRate),
          onRate,
          offRate);
    }
    if (options.ways().contains(Way.OPTIMISTIC)) {
      designs.add(optimistic(database, load, options, progress));
      report(out, designs.getLast());
    }
    if (options.ways().contains(Way.PESSIMISTIC) && options.pessimisticReceipts() > 0) {
      int messages = Math.max(1, options.pessimisticReceipts() / 10);
      Workload small =
          workload(campaign + 1, messages, options.pessimisticReceipts(), options.seed());
      designs.add(pessimistic(database, small, options, progress));
      report(out, designs.getLast());
    }
    for (Design tidings : designs) {
      if (!tidings.name().startsWith("tidings")) continue;
      for (Design seed : designs)
        if (!seed.name().startsWith("tidings"))
          out.printf(
              Locale.ROOT,
              "%s / %s throughput: %.1fx%n",
              tidings.name(),
              seed.name(),
              tidings.receiptsPerSecond() / seed.receiptsPerSecond());
    }
    return new Result(
        options.messages(), load.receipts().size(), options.batch(), options.consumers(), designs);
  }

  private static void report(PrintStream out, Design design) {
    out.printf(
        Locale.ROOT,
        "%-16s %,10d receipts in %6.2f s  %,9.0f receipts/s  funnel error %,d%n",
        design.name(),
        design.receipts(),
        design.seconds(),
        design.receiptsPerSecond(),
        design.funnelError());
  }

  /** The stories, the oracle's funnel (each step once per message) and each message's last status. */
  private static Workload workload(long campaign, int messages, int target, long seed) {
    var random = new Random(seed);
    List<Receipt> unique = new ArrayList<>();
    List<Receipt> engagements = new ArrayList<>();
    Map<FunnelStep, Long> funnel = new EnumMap<>(FunnelStep.class);
    Map<String, DeliveryStatus> last = new HashMap<>();
    for (int i = 0; i < messages; i++) {
      String id = new MessageId(campaign, 1, "m" + i).text();
      Instant sent = T0.plusMillis(i * 10L);
      List<Receipt> story = new ArrayList<>();
      story.add(Receipt.of(id, DeliveryStatus.SENT, sent, ReceiptSource.API));
      double fate = random.nextDouble();
      if (fate < 0.02) {
        story.add(Receipt.of(id, DeliveryStatus.BOUNCED, sent.plusSeconds(5), ReceiptSource.API));
      } else if (fate < 0.72) {
        story.add(Receipt.of(id, DeliveryStatus.DELIVERED, sent.plusSeconds(3), ReceiptSource.API));
        if (fate < 0.22) {
          story.add(
              Receipt.of(id, DeliveryStatus.OPENED, sent.plusSeconds(600), ReceiptSource.API));
          if (fate < 0.12)
            story.add(
                Receipt.of(id, DeliveryStatus.CLICKED, sent.plusSeconds(700), ReceiptSource.API));
        }
      }
      DeliveryStatus highest = DeliveryStatus.QUEUED;
      Set<FunnelStep> steps = new HashSet<>();
      for (Receipt receipt : story) {
        steps.addAll(FunnelStep.implied(receipt.status(), false));
        if (receipt.status().priority() > highest.priority()) highest = receipt.status();
        if (receipt.status() == DeliveryStatus.OPENED || receipt.status() == DeliveryStatus.CLICKED)
          engagements.add(receipt);
      }
      steps.forEach(step -> funnel.merge(step, 1L, Long::sum));
      last.put(id, highest);
      unique.addAll(story);
    }
    // readers open and click again; providers send some receipts twice
    List<Receipt> all = new ArrayList<>(target);
    all.addAll(unique);
    int duplicates = target / 10;
    while (all.size() < target - duplicates && !engagements.isEmpty()) {
      Receipt again = engagements.get(random.nextInt(engagements.size()));
      all.add(Receipt.of(
          again.messageId(),
          again.status(),
          again.at().plusSeconds(60 + random.nextInt(86_400)),
          ReceiptSource.API));
    }
    while (all.size() < target) all.add(all.get(random.nextInt(all.size())));
    Collections.shuffle(all, random);
    return new Workload(all, funnel, last);
  }

  private interface BatchApplier {
    void apply(List<Receipt> batch) throws Exception;
  }

  private static double consume(
      Workload load, Options options, Tracker tracker, BatchApplier applier) {
    List<Receipt> receipts = load.receipts();
    var next = new AtomicInteger();
    var done = new AtomicLong();
    long started = System.nanoTime();
    try (var consumers = Executors.newFixedThreadPool(options.consumers())) {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < options.consumers(); c++)
        running.add(consumers.submit(() -> {
          for (int b = next.getAndIncrement();
              (long) b * options.batch() < receipts.size();
              b = next.getAndIncrement()) {
            int from = b * options.batch();
            var batch = receipts.subList(from, Math.min(receipts.size(), from + options.batch()));
            applyRetrying(applier, batch);
            tracker.stepTo(done.addAndGet(batch.size()));
          }
          return null;
        }));
      for (Future<?> consumer : running) consumer.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a consumer failed: " + e.getCause(), e.getCause());
    }
    return (System.nanoTime() - started) / 1e9;
  }

  /** A batch that lost a deadlock is applied again, as the queue would redeliver it. */
  private static void applyRetrying(BatchApplier applier, List<Receipt> batch) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        applier.apply(batch);
        return;
      } catch (Exception e) {
        if (attempt >= 10 || !deadlock(e)) throw e;
      }
    }
  }

  private static boolean deadlock(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause())
      if (String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("deadlock")) return true;
    return false;
  }

  private static Design tidings(
      Database database,
      long campaign,
      Workload load,
      Options options,
      BiFunction<String, Long, Tracker> progress,
      @Nullable Function<Database, AutoCloseable> eventsOut) {
    String name = eventsOut == null ? "tidings store, events off" : "tidings store";
    var store =
        sendRecordsApplied(database, load, eventsOut == null ? EventOutbox.OFF : EventOutbox.ON);
    double seconds;
    try (AutoCloseable events = eventsOut == null ? () -> {} : eventsOut.apply(database);
        Tracker tracker = progress.apply(name, (long) load.receipts().size())) {
      seconds = consume(load, options, tracker, batch -> store.apply(batch, List.of()));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return new Design(
        name,
        load.receipts().size(),
        seconds,
        load.receipts().size() / seconds,
        funnelError(database, campaign, load));
  }

  /**
   * The messages are in the gateway before their receipts come, as the seed's inbox had them (and as
   * the baselines' tables are prepared): their send records are applied first, not timed.
   */
  private static ReceiptStore sendRecordsApplied(
      Database database, Workload load, EventOutbox outbox) {
    var store = new ReceiptStore(
        database.jdbi(), InstantSource.system(), outbox, new SimpleMeterRegistry());
    List<Receipt> sendRecords = new ArrayList<>();
    for (String message : load.last().keySet())
      sendRecords.add(
          Receipt.of(message, DeliveryStatus.IN_GATEWAY, T0.minusSeconds(1), ReceiptSource.SMTP));
    for (int from = 0; from < sendRecords.size(); from += 5_000)
      store.apply(sendRecords.subList(from, Math.min(sendRecords.size(), from + 5_000)), List.of());
    return store;
  }

  private static long funnelError(Database database, long campaign, Workload load) {
    var figures = new DeliveryStats(database.jdbi()).campaign(campaign, T0);
    long error = 0;
    for (FunnelStep step : FunnelStep.values())
      error += Math.abs(figures.count(step) - load.funnel().getOrDefault(step, 0L));
    return error;
  }

  /**
   * The whole way a receipt travels: batches posted as JSON arrays to the delivery-events route by
   * {@code httpClients} keep-alive connections, each answered once its receipts are queued, then
   * consumed into PostgreSQL. Timed from the first post until the consumers applied every receipt.
   * The bodies are written before the clock starts, so the clients cost the server's two cores as
   * little as they can.
   */
  private static Design endToEnd(
      Database database,
      long campaign,
      Workload load,
      Options options,
      Pipeline pipeline,
      BiFunction<String, Long, Tracker> progress,
      PrintStream out) {
    sendRecordsApplied(database, load, EventOutbox.ON);
    List<byte[]> bodies = new ArrayList<>();
    List<Receipt> receipts = load.receipts();
    for (int from = 0; from < receipts.size(); from += options.batch()) {
      ArrayNode array = Json.MAPPER.createArrayNode();
      for (Receipt receipt :
          receipts.subList(from, Math.min(receipts.size(), from + options.batch())))
        array
            .addObject()
            .put("messageId", receipt.messageId())
            .put("status", receipt.status().wire())
            .put("timestamp", receipt.at().toString());
      bodies.add(Json.MAPPER.writeValueAsBytes(array));
    }
    List<String> headers =
        List.of("Authorization: Bearer " + pipeline.apiKey(), "Content-Type: application/json");
    long appliedBefore = pipeline.applied();
    var next = new AtomicInteger();
    long started = System.nanoTime();
    double postedSeconds;
    double seconds;
    try (Tracker tracker = progress.apply("tidings http", (long) receipts.size())) {
      try (var clients = Executors.newFixedThreadPool(options.httpClients())) {
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < options.httpClients(); c++)
          running.add(clients.submit(() -> {
            try (var connection = new KeepAliveConnection("127.0.0.1", pipeline.port(), 60_000)) {
              for (int b = next.getAndIncrement(); b < bodies.size(); b = next.getAndIncrement()) {
                connection.post("/api/v1/delivery-events", headers, bodies.get(b));
                var answer = connection.read();
                if (answer.status() != 202)
                  throw new IllegalStateException(
                      "POST /api/v1/delivery-events answered " + answer.status());
              }
            }
            return null;
          }));
        while (!running.stream().allMatch(Future::isDone)) {
          tracker.stepTo(pipeline.applied() - appliedBefore);
          Thread.sleep(20);
        }
        for (Future<?> client : running) client.get();
      }
      postedSeconds = (System.nanoTime() - started) / 1e9;
      for (int polls = 1; pipeline.applied() - appliedBefore < receipts.size(); polls++) {
        if (polls % 200 == 0 && pipeline.deadLetters() > 0)
          throw new IllegalStateException("receipt batches went to the dead-letter queue");
        tracker.stepTo(pipeline.applied() - appliedBefore);
        Thread.sleep(5);
      }
      seconds = (System.nanoTime() - started) / 1e9;
      tracker.stepTo(receipts.size());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("an HTTP client failed: " + e.getCause(), e.getCause());
    }
    out.printf(
        Locale.ROOT,
        "  all %,d requests answered (receipts queued) after %.2f s; applied after %.2f s%n",
        bodies.size(),
        postedSeconds,
        seconds);
    return new Design(
        "tidings http",
        receipts.size(),
        seconds,
        receipts.size() / seconds,
        funnelError(database, campaign, load));
  }

  /** Seed 02's second design: a conditional update per receipt, every receipt counted in the funnel. */
  private static Design optimistic(
      Database database,
      Workload load,
      Options options,
      BiFunction<String, Long, Tracker> progress) {
    prepareSeedTables(database, load);
    double seconds;
    try (Tracker tracker = progress.apply("optimistic", (long) load.receipts().size())) {
      // a JDBC batch: one round trip and one implicit transaction per batch of receipts;
      seconds = consume(
          load,
          options,
          tracker,
          batch -> database.jdbi().useHandle(handle -> {
            Connection connection = handle.getConnection();
            try (PreparedStatement move = connection.prepareStatement(
                    "UPDATE seed_messages SET priority = ? WHERE id = ? AND priority < ?");
                PreparedStatement count = connection.prepareStatement(
                    "UPDATE seed_funnel SET count = count + ? WHERE status = ?")) {
              Map<Integer, Long> perStatus = new TreeMap<>();
              // in message order, so that two consumers' batches lock rows in the same order
              List<Receipt> ordered = new ArrayList<>(batch);
              ordered.sort(Comparator.comparing(Receipt::messageId));
              for (Receipt receipt : ordered) {
                int priority = receipt.status().priority();
                move.setInt(1, priority);
                move.setString(2, receipt.messageId());
                move.setInt(3, priority);
                move.addBatch();
                perStatus.merge(priority, 1L, Long::sum);
              }
              move.executeBatch();
              for (var status : perStatus.entrySet()) {
                count.setLong(1, status.getValue());
                count.setInt(2, status.getKey());
                count.addBatch();
              }
              count.executeBatch();
            }
          }));
    }
    return new Design(
        "optimistic",
        load.receipts().size(),
        seconds,
        load.receipts().size() / seconds,
        seedFunnelError(database, load));
  }

  /** Seed 02's first design: per receipt, lock the message, compare, write, move the counters. */
  private static Design pessimistic(
      Database database,
      Workload load,
      Options options,
      BiFunction<String, Long, Tracker> progress) {
    prepareSeedTables(database, load);
    double seconds;
    try (Tracker tracker = progress.apply("pessimistic", (long) load.receipts().size())) {
      seconds = consume(
          load,
          options,
          tracker,
          batch -> database.jdbi().useHandle(handle -> {
            Connection connection = handle.getConnection();
            connection.setAutoCommit(false);
            try (PreparedStatement lock = connection.prepareStatement(
                    "SELECT priority FROM seed_messages WHERE id = ? FOR UPDATE");
                PreparedStatement move = connection.prepareStatement(
                    "UPDATE seed_messages SET priority = ? WHERE id = ?");
                PreparedStatement counter = connection.prepareStatement(
                    "UPDATE seed_current SET count = count + ? WHERE status = ?")) {
              for (Receipt receipt : batch) {
                lock.setString(1, receipt.messageId());
                int current;
                try (ResultSet row = lock.executeQuery()) {
                  if (!row.next()) {
                    connection.commit();
                    continue;
                  }
                  current = row.getInt(1);
                }
                int priority = receipt.status().priority();
                if (priority > current) {
                  move.setInt(1, priority);
                  move.setString(2, receipt.messageId());
                  move.executeUpdate();
                  counter.setLong(1, -1);
                  counter.setInt(2, current);
                  counter.executeUpdate();
                  counter.setLong(1, 1);
                  counter.setInt(2, priority);
                  counter.executeUpdate();
                }
                connection.commit();
              }
            } catch (SQLException e) {
              connection.rollback();
              throw e;
            } finally {
              connection.setAutoCommit(true);
            }
          }));
    }
    // the pessimistic design keeps current-status counts; its error is against the oracle's last
    // statuses
    Map<Integer, Long> expected = new HashMap<>();
    load.last().values().forEach(status -> expected.merge(status.priority(), 1L, Long::sum));
    Map<Integer, Long> counted = countsOf(database, "seed_current");
    long error = 0;
    Set<Integer> statuses = new HashSet<>(expected.keySet());
    statuses.addAll(counted.keySet());
    for (int status : statuses)
      if (status != DeliveryStatus.IN_GATEWAY.priority())
        error += Math.abs(counted.getOrDefault(status, 0L) - expected.getOrDefault(status, 0L));
    return new Design(
        "pessimistic", load.receipts().size(), seconds, load.receipts().size() / seconds, error);
  }

  /** The seed's tables, with every message already in the gateway, as the seed's inbox had them. */
  private static void prepareSeedTables(Database database, Workload load) {
    database.jdbi().useHandle(handle -> {
      handle.execute("DROP TABLE IF EXISTS seed_messages, seed_funnel, seed_current");
      handle.execute("CREATE TABLE seed_messages (id text PRIMARY KEY, priority int NOT NULL)");
      handle.execute("CREATE TABLE seed_funnel (status int PRIMARY KEY, count bigint NOT NULL)");
      handle.execute("CREATE TABLE seed_current (status int PRIMARY KEY, count bigint NOT NULL)");
      handle
          .createUpdate("INSERT INTO seed_messages SELECT m, :p FROM unnest(:ids) AS x(m)")
          .bind("p", DeliveryStatus.IN_GATEWAY.priority())
          .bindArray("ids", String.class, List.copyOf(load.last().keySet()))
          .execute();
      for (DeliveryStatus status : DeliveryStatus.values()) {
        handle.execute("INSERT INTO seed_funnel VALUES (?, 0)", status.priority());
        handle.execute(
            "INSERT INTO seed_current VALUES (?, ?)",
            status.priority(),
            status == DeliveryStatus.IN_GATEWAY ? (long) load.last().size() : 0L);
      }
    });
  }

  /** A seed table's count per status priority. */
  private static Map<Integer, Long> countsOf(Database database, String table) {
    return database.jdbi().withHandle(handle -> {
      Map<Integer, Long> rows = new HashMap<>();
      handle
          .createQuery("SELECT status, count FROM " + table)
          .map((rs, ctx) -> Map.entry(rs.getInt(1), rs.getLong(2)))
          .forEach(row -> rows.put(row.getKey(), row.getValue()));
      return rows;
    });
  }

  private static long seedFunnelError(Database database, Workload load) {
    Map<Integer, Long> counted = countsOf(database, "seed_funnel");
    long error = 0;
    for (DeliveryStatus status : SEED_STATUSES)
      error += Math.abs(counted.getOrDefault(status.priority(), 0L)
          - load.funnel().getOrDefault(FunnelStep.of(status), 0L));
    return error;
  }
}
