package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.app.Logging;
import dev.tidings.bench.DeliveryBench;
import dev.tidings.bench.DiscardSmtpServer;
import dev.tidings.bench.SendBench;
import dev.tidings.campaign.Audience;
import dev.tidings.cli.EnvironmentAware;
import dev.tidings.cli.UsageException;
import dev.tidings.coordination.Coordination;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.coordination.postgres.PostgresCountdown;
import dev.tidings.events.CloudEvent;
import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventListener.ReceivedEvent;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.activity.ActivityAccepted;
import dev.tidings.journeys.Due;
import dev.tidings.journeys.EntryRules;
import dev.tidings.journeys.Journey;
import dev.tidings.journeys.JourneyRuntime;
import dev.tidings.journeys.JourneyState;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.People;
import dev.tidings.journeys.ReaderLimits;
import dev.tidings.journeys.ReaderLimitsStore;
import dev.tidings.journeys.Step;
import dev.tidings.journeys.StepSender;
import dev.tidings.journeys.Trigger;
import dev.tidings.mail.smtp.SmtpMailTransport;
import dev.tidings.mail.smtp.SmtpSettings;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscribing;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "journeys",
    mixinStandardHelpOptions = true,
    description = {
      "Journeys at scale: --entries people enter an abandoned-cart journey through its event listener",
      "(entries/s), then the rest of --people are placed inside it asleep, each with the not-before",
      "queue message a sleeping person has, so that --people are inside. Then --rate people a second",
      "come due for --seconds and the steppers look at them and send (to a counting sender: the send",
      "itself is what bench send measures); prints steps/s and how late each look was (p50, p99, max),",
      "beside the ceiling of the path: the same not-before messages consumed by a handler that does",
      "nothing. Peak heap per phase. Uses TIDINGS_DB_URL when set (a schema of its own, dropped",
      "afterwards), else a fresh embedded PostgreSQL."
    })
final class JourneyBenchCommand extends EnvironmentAware implements Callable<Integer> {
  @Option(
      names = "--people",
      defaultValue = "1000000",
      description = "people inside the journey (default ${DEFAULT-VALUE})")
  int people;

  @Option(
      names = "--entries",
      defaultValue = "50000",
      description = "of them, entered through the listener (default ${DEFAULT-VALUE})")
  int entries;

  @Option(
      names = "--rate",
      defaultValue = "5000",
      description = "people due per second (default ${DEFAULT-VALUE})")
  int rate;

  @Option(
      names = "--seconds",
      defaultValue = "30",
      description = "how long people come due at --rate (default ${DEFAULT-VALUE})")
  int seconds;

  @Option(
      names = "--consumers",
      defaultValue = "4",
      description = "steppers, as a worker node runs them (default ${DEFAULT-VALUE})")
  int consumers;

  @Option(
      names = "--send",
      defaultValue = "20000",
      description =
          "emails of bench send's run, sent alone and then while people come due (0: not measured;"
              + " default ${DEFAULT-VALUE})")
  int send;

  @Option(
      names = "--receipts",
      defaultValue = "100000",
      description =
          "receipts of bench delivery's run (the store, events out, the funnel's listeners), applied"
              + " without the journeys, then with their listener and people coming due (0: not"
              + " measured; default ${DEFAULT-VALUE})")
  int receipts;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  private static final Duration WAIT = Duration.ofDays(1);
  private static final int ENTRY_BATCH = 500;
  private static final int PLACE_BATCH = 10_000;
  private static final String CEILING_QUEUE = "bench.journeys.ceiling";
  private long position = 1;

  /** How many of the placed people later phases have made due so far. */
  private final AtomicLong sent = new AtomicLong();

  /** One phase's figures: how many, how fast, how late (looks only), and the heap at its peak. */
  record Phase(
      String name,
      long count,
      double seconds,
      double perSecond,
      @Nullable Lateness lateness,
      long peakHeapBytes) {}

  /** Lateness of the looks, in milliseconds. */
  record Lateness(double p50, double p99, double max) {
    static Lateness of(long[] nanos, int count) {
      long[] sorted = Arrays.copyOf(nanos, count);
      Arrays.sort(sorted);
      return new Lateness(
          at(sorted, 0.50) / 1e6, at(sorted, 0.99) / 1e6, sorted[sorted.length - 1] / 1e6);
    }

    private static double at(long[] sorted, double quantile) {
      return sorted[Math.min(sorted.length - 1, (int) Math.floor(quantile * sorted.length))];
    }
  }

  record Result(
      int people, int entries, int rate, int seconds, int consumers, List<Phase> phases) {}

  @Override
  public Integer call() throws Exception {
    if (people < 1 || entries < 1 || entries > people || rate < 1 || seconds < 1)
      throw new UsageException(
          "--people, --entries, --rate and --seconds must be at least 1, --entries at most --people");
    if ((long) rate * seconds > people)
      throw new UsageException("--rate x --seconds people must be inside: raise --people");
    var settings = settings();
    Logging.configure(settings.logFormat());
    try (var scratch = ScratchDirectory.create("tidings-bench-journeys");
        var throwaway = ThrowawayDatabase.open(settings, scratch.path(), 12)) {
      Database database = throwaway.database();
      System.out.println("database: " + database.describe());
      List<Phase> phases = new ArrayList<>();
      var sender = new CountingSender(rate * seconds);
      WorkQueue queue = ThrowawayQueues.queueTables(database);
      queue.declare(Due.TOPIC.spec());
      var store = new JourneyStore(database.jdbi(), InstantSource.system());
      var limits = new ReaderLimitsStore(database.jdbi());
      limits.put(new ReaderLimits(100, 700, null, null));
      long journey = store.create(abandonedCart()).id();
      store.changeState(journey, Set.of(JourneyState.DRAFT), JourneyState.ACTIVE);
      var runtime = new JourneyRuntime(
          database.jdbi(),
          store,
          limits,
          new NobodySent(),
          sender,
          (activity, from, to, after, limit) -> List.of(),
          queue,
          new SimpleMeterRegistry(),
          InstantSource.system(),
          consumers);

      phases.add(enter(runtime));
      // the entrants' first looks are not this benchmark's: each person below is given one message
      queue.delete(Due.TOPIC.name());
      queue.declare(Due.TOPIC.spec());
      phases.add(place(database, queue, journey));
      phases.add(due(database, queue, runtime, journey, sender));
      phases.add(ceiling(queue));
      if (send > 0) phases.addAll(sendAlongside(database, queue, runtime, journey, sender));
      if (receipts > 0) phases.addAll(deliveryAlongside(database, queue, runtime, journey, sender));
      queue.close();

      print(phases);
      if (json != null) {
        Json.MAPPER
            .writerWithDefaultPrettyPrinter()
            .writeValue(
                json.toFile(), new Result(people, entries, rate, seconds, consumers, phases));
        System.out.println("figures written to " + json);
      }
      return 0;
    }
  }

  private static Journey abandonedCart() {
    return new Journey(
        "Abandoned cart",
        new Trigger.Did("add_to_cart", 1, Duration.ofHours(1)),
        new EntryRules(Duration.ofDays(7), (Audience) null),
        List.of(
            new Step.Wait("wait", new Step.Until.For(WAIT), "reminder"),
            new Step.Send("reminder", 1, null)),
        "purchase",
        // nobody held out: every look is one the counting sender sees
        0);
  }

  private static String person(long i) {
    return String.format(Locale.ROOT, "p%07d", i);
  }

  /** {@code --entries} add-to-cart events through the journeys' listener, as the relay hands them. */
  private Phase enter(JourneyRuntime runtime) throws Exception {
    resetPeaks();
    Instant at = Instant.now();
    long start = System.nanoTime();
    try (var progress = ProgressTracker.of("entered through the listener", entries, "people")) {
      for (int from = 0; from < entries; from += ENTRY_BATCH) {
        List<ActivityAccepted> events = new ArrayList<>(ENTRY_BATCH);
        for (int i = from; i < Math.min(entries, from + ENTRY_BATCH); i++)
          events.add(
              new ActivityAccepted(null, person(i), "add_to_cart", "item-" + (i % 997), 1, at));
        List<ReceivedEvent> received = new ArrayList<>(events.size());
        for (ActivityAccepted event : events)
          received.add(new ReceivedEvent(
              new CloudEvent(
                  java.util.UUID.randomUUID().toString(),
                  position++,
                  CloudEventType.of(event),
                  event.subject(),
                  event.time(),
                  Json.MAPPER.valueToTree(event)),
              event));
        runtime.entries().apply(received);
        progress.stepTo(Math.min(entries, from + ENTRY_BATCH));
      }
    }
    return phase("entries, through the listener", entries, start, null);
  }

  /** The rest of the people, asleep inside the journey, each with their not-before message. */
  private Phase place(Database database, WorkQueue queue, long journey) {
    resetPeaks();
    long start = System.nanoTime();
    Instant now = Instant.now();
    Instant later = now.plus(WAIT);
    try (var progress = ProgressTracker.of("placed inside, asleep", people, "people")) {
      for (long from = entries; from < people; from += PLACE_BATCH) {
        long to = Math.min(people, from + PLACE_BATCH);
        long first = from;
        database
            .jdbi()
            .useHandle(handle -> handle
                .createUpdate("""
                INSERT INTO journey_instances (journey_id, subscriber_id, entry, version,
                    entered_at, held_out, items, at_step, since, due_at)
                SELECT :journey, 'p' || lpad(i::text, 7, '0'), 1, 1, :now, false,
                       ARRAY['item-' || (i % 997)], 'wait', :now, :later
                  FROM generate_series(:from::bigint, :to::bigint - 1) AS i""")
                .bind("journey", journey)
                .bind("now", Timestamp.from(now))
                .bind("later", Timestamp.from(later))
                .bind("from", first)
                .bind("to", to)
                .execute());
        List<Message> messages = new ArrayList<>(PLACE_BATCH);
        for (long i = from; i < to; i++)
          messages.add(
              Due.TOPIC.message(new Due(journey, person(i), 1, later), 0).notBefore(later));
        queue.publishAll(Due.TOPIC.name(), messages);
        progress.stepTo(to);
      }
    }
    Phase placed =
        phase("placed inside asleep, with their messages", people - entries, start, null);
    // a table that grew by a million rows in seconds is analyzed by autovacuum a little later on a
    // live database; the looks' plans are read from its statistics, so they are brought up to date
    // now
    database.jdbi().useHandle(handle -> handle.execute("ANALYZE journey_instances"));
    return placed;
  }

  /**
   * {@code --rate} people a second come due for {@code --seconds}: each is moved to where their wait
   * ends then, with the message that says so; the steppers run meanwhile.
   */
  private Phase due(
      Database database,
      WorkQueue queue,
      JourneyRuntime runtime,
      long journey,
      CountingSender sender)
      throws Exception {
    int count = rate * seconds;
    List<Subscription> subscriptions = new ArrayList<>();
    Instant first = schedule(database, queue, journey, sender, 0, count);
    resetPeaks();
    runtime.stepper().register(new Subscribing(queue, subscriptions));
    long start;
    try (var progress = ProgressTracker.of("looked at when due", count, "people")) {
      while (Instant.now().isBefore(first)) Thread.sleep(5);
      start = System.nanoTime();
      long deadline = start + Duration.ofSeconds(seconds * 4L + 120).toNanos();
      while (sender.sent() < count && System.nanoTime() < deadline) {
        progress.stepTo(sender.sent());
        Thread.sleep(50);
      }
    }
    for (Subscription subscription : subscriptions) subscription.close();
    int done = (int) Math.min(count, sender.sent());
    if (done < count)
      System.out.printf(
          Locale.ROOT, "only %,d of %,d people were looked at in time%n", done, count);
    return phase(
        "people due, looked at and sent", done, start, Lateness.of(sender.lateness(), done));
  }

  /**
   * Makes people {@code skip .. skip + count} of those placed come due at {@code --rate} a second from
   * a few seconds from now, each moved to where their wait then ends, with their message; answers
   * when the first is due.
   */
  private Instant schedule(
      Database database,
      WorkQueue queue,
      long journey,
      CountingSender sender,
      int skip,
      int count) {
    int base = entries + skip;
    // the first comes due once they are all scheduled: a few seconds from now, and a second more
    // for
    // each 10,000 people to move and queue (the placing phase does about 20,000 a second or more)
    Instant first = Instant.now().plus(Duration.ofSeconds(5 + count / 10_000));
    sender.dueFrom(first, rate);
    sender.reset();
    for (int from = 0; from < count; from += PLACE_BATCH) {
      int to = Math.min(count, from + PLACE_BATCH);
      int start = from;
      database
          .jdbi()
          .useHandle(handle -> handle
              .createUpdate("""
              UPDATE journey_instances
                 SET since = CAST(:first AS timestamptz)
                       + make_interval(secs => (i - :entries)::float8 / :rate)
                       - make_interval(secs => :wait),
                     due_at = CAST(:first AS timestamptz)
                       + make_interval(secs => (i - :entries)::float8 / :rate)
                FROM generate_series(:from::bigint, :to::bigint - 1) AS i
               WHERE journey_id = :journey AND entry = 1
                 AND subscriber_id = 'p' || lpad(i::text, 7, '0')""")
              .bind("first", Timestamp.from(first))
              .bind("entries", base)
              .bind("rate", (double) rate)
              .bind("wait", (double) WAIT.toSeconds())
              .bind("from", (long) base + start)
              .bind("to", (long) base + to)
              .bind("journey", journey)
              .execute());
      List<Message> messages = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) {
        Instant due = sender.dueOf(i);
        messages.add(Due.TOPIC
            .message(new Due(journey, person((long) base + i), 1, due), 0)
            .notBefore(due));
      }
      queue.publishAll(Due.TOPIC.name(), messages);
    }
    sender.offset(base);
    return first;
  }

  /** The path's ceiling: the same not-before schedule, each message acknowledged and nothing else. */
  private Phase ceiling(WorkQueue queue) throws Exception {
    int count = rate * seconds;
    var spec = new QueueSpec(CEILING_QUEUE, 0, 5, Duration.ofSeconds(30));
    queue.declare(spec);
    Instant first = Instant.now().plus(Duration.ofSeconds(5));
    long[] lateness = new long[count];
    var seen = new AtomicLong();
    for (int from = 0; from < count; from += PLACE_BATCH) {
      List<Message> messages = new ArrayList<>();
      for (int i = from; i < Math.min(count, from + PLACE_BATCH); i++) {
        Instant due = first.plusNanos((long) (i * 1e9 / rate));
        messages.add(
            Message.of(Integer.toString(i).getBytes(StandardCharsets.UTF_8), 0).notBefore(due));
      }
      queue.publishAll(CEILING_QUEUE, messages);
    }
    resetPeaks();
    Subscription subscription = queue.subscribeBatches(CEILING_QUEUE, consumers, 100, batch -> {
      Instant now = Instant.now();
      for (var delivery : batch) {
        int i = Integer.parseInt(new String(delivery.body(), StandardCharsets.UTF_8));
        Instant due = first.plusNanos((long) (i * 1e9 / rate));
        int slot = (int) Math.min(count - 1, seen.getAndIncrement());
        lateness[slot] = Math.max(0, Duration.between(due, now).toNanos());
      }
      return BatchResult.ACK_ALL;
    });
    long start;
    try (var progress = ProgressTracker.of("ceiling: acknowledged when due", count, "messages")) {
      while (Instant.now().isBefore(first)) Thread.sleep(5);
      start = System.nanoTime();
      long deadline = start + Duration.ofSeconds(seconds * 4L + 120).toNanos();
      while (seen.get() < count && System.nanoTime() < deadline) {
        progress.stepTo(seen.get());
        Thread.sleep(50);
      }
    }
    subscription.close();
    int done = (int) Math.min(count, seen.get());
    return phase(
        "ceiling: the same messages, acknowledged only", done, start, Lateness.of(lateness, done));
  }

  /**
   * What people coming due cost a campaign's send on the same database and cores: bench send's run of
   * {@code --send} emails (the ledger, the queue, rendering and SMTP to a server that discards them)
   * alone, then again while {@code --rate} people a second come due for as long as it lasts.
   */
  private List<Phase> sendAlongside(
      Database database,
      WorkQueue queue,
      JourneyRuntime runtime,
      long journey,
      CountingSender sender)
      throws Exception {
    List<Phase> phases = new ArrayList<>();
    var clock = InstantSource.system();
    try (var smtp = DiscardSmtpServer.start();
        var mail = new SmtpMailTransport(
            SmtpSettings.fromUrl(
                java.net.URI.create("smtp://127.0.0.1:" + smtp.port() + "?pool=48")),
            clock)) {
      var backend = new SendBench.Backend(
          "bench send",
          database.jdbi(),
          queue,
          new Coordination(
              InProcessCoordination.computeOnce(clock),
              new PostgresCountdown(database),
              InProcessCoordination.rateLimiter(clock)),
          mail);
      var options = new SendBench.Options(send, 6, 8, 200, 1_000);
      var quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
      // a warm-up the figures leave out: the first run of the send path compiles it
      SendBench.run(
          backend, options.withSubscribers(Math.min(send, 5_000)), EventOutbox.OFF, smtp, quiet);
      var alone = SendBench.run(backend, options, EventOutbox.OFF, smtp, quiet);
      phases.add(new Phase(
          "bench send alone",
          alone.emails(),
          alone.totalSeconds(),
          alone.perSecond(),
          null,
          alone.peakHeapBytes()));
      // people come due for a little longer than the send took alone
      long left = people - entries - (long) rate * seconds;
      int count =
          (int) Math.min((long) rate * (long) Math.ceil(alone.totalSeconds() * 1.5 + 10), left);
      if (count < rate) {
        System.out.println("too few people left to come due beside the send: raise --people");
        return phases;
      }
      List<Subscription> subscriptions = new ArrayList<>();
      Instant first = schedule(database, queue, journey, sender, rate * seconds, count);
      this.sent.addAndGet(count);
      runtime.stepper().register(new Subscribing(queue, subscriptions));
      while (Instant.now().isBefore(first)) Thread.sleep(5);
      var beside = SendBench.run(backend, options, EventOutbox.OFF, smtp, quiet);
      int during = (int) Math.min(count, sender.sent());
      for (Subscription subscription : subscriptions) subscription.close();
      phases.add(new Phase(
          "bench send while people come due",
          beside.emails(),
          beside.totalSeconds(),
          beside.perSecond(),
          null,
          beside.peakHeapBytes()));
      phases.add(new Phase(
          "people looked at during that send",
          during,
          beside.totalSeconds(),
          during / beside.totalSeconds(),
          during == 0 ? null : Lateness.of(sender.lateness(), during),
          peakHeap()));
      System.out.printf(
          Locale.ROOT,
          "bench send: %.1f%% fewer emails/s while people come due (%,.0f alone, %,.0f beside)%n",
          100 * (1 - beside.perSecond() / alone.perSecond()),
          alone.perSecond(),
          beside.perSecond());
    }
    return phases;
  }

  /**
   * What the journeys cost bench delivery's receipts on the same database and cores: its run of the
   * store with events out and the funnel's listeners as a worker runs them, then the same with the
   * journeys' listener hearing the opens and clicks while {@code --rate} people a second come due.
   */
  private List<Phase> deliveryAlongside(
      Database database,
      WorkQueue queue,
      JourneyRuntime runtime,
      long journey,
      CountingSender sender)
      throws Exception {
    List<Phase> phases = new ArrayList<>();
    var quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
    var options = new DeliveryBench.Options(
        Math.max(1, receipts / 3), receipts, 1_000, 4, 0, 42, Set.of(DeliveryBench.Way.STORE), 1);
    var alone = DeliveryBench.run(
        database,
        options,
        db -> BenchDeliveryPipeline.start(db, Optional.empty(), 4, 1 << 20),
        db -> BenchEventsOut.start(db, BenchEventsOut.funnelListeners(db)),
        (task, total) -> ProgressTracker.of(task, total, "receipts"),
        quiet);
    DeliveryBench.Design without = alone.designs().getLast();
    phases.add(new Phase(
        "bench delivery, events out (the funnel's listeners)",
        without.receipts(),
        without.seconds(),
        without.receiptsPerSecond(),
        null,
        peakHeap()));
    long left = people - entries - (long) rate * seconds - sent.get();
    // the run took about four times one run's seconds and its warm-ups; people come due for as long
    int count = (int) Math.min((long) rate * (long) Math.ceil(without.seconds() * 6 + 20), left);
    if (count < rate) {
      System.out.println("too few people left to come due beside the receipts: raise --people");
      return phases;
    }
    List<Subscription> subscriptions = new ArrayList<>();
    Instant first =
        schedule(database, queue, journey, sender, (int) (people - entries - left), count);
    sent.addAndGet(count);
    runtime.stepper().register(new Subscribing(queue, subscriptions));
    while (Instant.now().isBefore(first)) Thread.sleep(5);
    var beside = DeliveryBench.run(
        database,
        options,
        db -> BenchDeliveryPipeline.start(db, Optional.empty(), 4, 1 << 20),
        db -> BenchEventsOut.start(
            db,
            queue1 -> {
              List<dev.tidings.events.EventListener> listeners =
                  new ArrayList<>(BenchEventsOut.funnelListeners(db));
              listeners.add(runtime.entries());
              return listeners;
            },
            queue1 -> List.of()),
        (task, total) -> ProgressTracker.of(task, total, "receipts"),
        quiet);
    int during = (int) Math.min(count, sender.sent());
    for (Subscription subscription : subscriptions) subscription.close();
    DeliveryBench.Design with = beside.designs().getLast();
    phases.add(new Phase(
        "bench delivery with the journeys listening and people due",
        with.receipts(),
        with.seconds(),
        with.receiptsPerSecond(),
        null,
        peakHeap()));
    phases.add(new Phase(
        "people looked at during those receipts",
        during,
        with.seconds() * 4,
        during / (with.seconds() * 4),
        during == 0 ? null : Lateness.of(sender.lateness(), during),
        peakHeap()));
    System.out.printf(
        Locale.ROOT,
        "bench delivery: %.1f%% fewer receipts/s with the journeys (%,.0f without, %,.0f with)%n",
        100 * (1 - with.receiptsPerSecond() / without.receiptsPerSecond()),
        without.receiptsPerSecond(),
        with.receiptsPerSecond());
    return phases;
  }

  private static Phase phase(String name, long count, long startNanos, @Nullable Lateness late) {
    double elapsed = (System.nanoTime() - startNanos) / 1e9;
    return new Phase(name, count, elapsed, count / elapsed, late, peakHeap());
  }

  private void print(List<Phase> phases) {
    System.out.printf(
        Locale.ROOT,
        "%nJourneys: %,d people inside, %,d due at %,d/s for %d s, %d steppers%n",
        people,
        (long) rate * seconds,
        rate,
        seconds,
        consumers);
    System.out.printf(
        Locale.ROOT,
        "%-48s %10s %9s %10s %9s %9s %9s %8s%n",
        "phase",
        "count",
        "seconds",
        "per second",
        "late p50",
        "late p99",
        "late max",
        "heap MB");
    for (Phase phase : phases) {
      Lateness late = phase.lateness();
      System.out.printf(
          Locale.ROOT,
          "%-48s %,10d %9.1f %,10.0f %9s %9s %9s %8.0f%n",
          phase.name(),
          phase.count(),
          phase.seconds(),
          phase.perSecond(),
          late == null ? "" : String.format(Locale.ROOT, "%.0f ms", late.p50()),
          late == null ? "" : String.format(Locale.ROOT, "%.0f ms", late.p99()),
          late == null ? "" : String.format(Locale.ROOT, "%.0f ms", late.max()),
          phase.peakHeapBytes() / 1048576.0);
    }
  }

  private static List<MemoryPoolMXBean> heap() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP)
        .toList();
  }

  private static void resetPeaks() {
    heap().forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  private static long peakHeap() {
    return heap().stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
  }

  /** Nobody was sent anything before; everyone lives in UTC. */
  private static final class NobodySent implements People {
    @Override
    public Map<String, ZoneId> zones(Collection<String> subscriberIds) {
      return Map.of();
    }

    @Override
    public boolean inSegment(Audience segment, String subscriberId) {
      return true;
    }

    @Override
    public Instant bestHourAfter(String subscriberId, ZoneId zone, Instant after) {
      return after;
    }

    @Override
    public Map<String, List<SentEmail>> sentSince(Collection<String> subscriberIds, Instant since) {
      return Map.of();
    }
  }

  /**
   * Counts the sends and how late each was: person {@code p<offset + i>} was due at {@code first + i /
   * rate}. Its run ids are one per key, as the campaigns' would be.
   */
  private static final class CountingSender implements StepSender {
    private final long[] lateness;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong runs = new AtomicLong();
    private final Map<String, Long> keys = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Instant first = Instant.EPOCH;
    private volatile int rate = 1;
    private volatile int offset;

    CountingSender(int capacity) {
      this.lateness = new long[capacity];
    }

    void dueFrom(Instant first, int rate) {
      this.first = first;
      this.rate = rate;
    }

    void offset(int offset) {
      this.offset = offset;
    }

    /** Counts from nothing again, for the next people due. */
    void reset() {
      sent.set(0);
    }

    Instant dueOf(int i) {
      return first.plusNanos((long) (i * 1e9 / rate));
    }

    long sent() {
      return sent.get();
    }

    long[] lateness() {
      return lateness;
    }

    @Override
    public Optional<Long> runFor(long campaignId, String key) {
      return Optional.of(keys.computeIfAbsent(key, k -> runs.incrementAndGet()));
    }

    @Override
    public void send(long campaignId, long runId, String subscriberId) {
      Instant now = Instant.now();
      int i = Integer.parseInt(subscriberId.substring(1)) - offset;
      long slot = sent.getAndIncrement();
      if (i >= 0 && slot < lateness.length)
        lateness[(int) slot] = Math.max(0, Duration.between(dueOf(i), now).toNanos());
    }

    @Override
    public Optional<Outcomes> outcomes(long campaignId, long runId) {
      return Optional.empty();
    }
  }
}
