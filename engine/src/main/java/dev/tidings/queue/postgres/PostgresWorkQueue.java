package dev.tidings.queue.postgres;

import dev.tidings.LogText;
import dev.tidings.StoredText;
import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.Message;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.PoisonIsolation;
import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.UnknownQueueException;
import dev.tidings.queue.WorkQueue;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jdbi.v3.core.JdbiException;
import org.jspecify.annotations.Nullable;

/**
 * Work queues in PostgreSQL tables: the embedded default (a single node loses nothing on a crash),
 * equally usable on an external server shared by many nodes.
 *
 * <p>Consumers lease messages with {@code FOR UPDATE SKIP LOCKED}, as many as they have room for in
 * one statement; a lease lasts the queue's visibility timeout and is renewed while the handler runs
 * within its time limit, so a message whose consumer died (or whose handler hangs) is delivered again
 * once its lease ends, and that delivery counts towards the queue's max deliveries. Results are
 * settled in sets: one statement deletes, retries and dead-letters a whole batch. Idle consumers sleep
 * until a NOTIFY (at most one per queue per {@link PostgresQueueOptions#notifyInterval()} from each
 * node) or a poll interval wakes them. A consumer that loses its lease anyway (a pause longer than
 * the timeout) cannot settle: its ack is refused by the claim token and the message's new holder
 * decides.
 *
 * <p>A delayed message (a not-before ahead) waits in a table of its own, out of the claim index, and
 * the first claim of its queue once it is due moves it in; an idle consumer sleeps no longer than until
 * the next one is due (V42__work_queue_delayed.sql).
 *
 * <p>Does not own the {@link Database}: closing this queue leaves the pool open.
 */
public final class PostgresWorkQueue implements WorkQueue {
  private final Database database;
  private final MessageTable table;
  private final PostgresQueueOptions options;
  private final Wakeups wakeups = new Wakeups();
  private final NotificationListener listener;
  private final @Nullable Notifier notifier;
  private final ConcurrentHashMap<String, QueueSpec> specs = new ConcurrentHashMap<>();
  private final Set<ConsumerSubscription> subscriptions = ConcurrentHashMap.newKeySet();
  private final MeterRegistry metrics;
  private final QueueCounters counters;

  /** With the default options, counting in {@code metrics}. */
  public PostgresWorkQueue(Database database, MeterRegistry metrics) {
    this(database, PostgresQueueOptions.defaults(), metrics);
  }

  /** Counting the messages its batch consumers give up on in {@code metrics} ({@link PoisonIsolation}). */
  public PostgresWorkQueue(Database database, PostgresQueueOptions options, MeterRegistry metrics) {
    this.database = Objects.requireNonNull(database, "database");
    this.options = Objects.requireNonNull(options, "options");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.counters = new QueueCounters(metrics);
    this.table = new MessageTable(database.jdbi());
    this.listener =
        new NotificationListener(database.dataSource(), wakeups, options.pollInterval());
    listener.start();
    this.notifier =
        options.notifyInterval().isZero() ? null : new Notifier(table, options.notifyInterval());
  }

  @Override
  public void declare(QueueSpec spec) {
    unavailableOnFailure("declare queue '" + spec.name() + "'", () -> {
      table.declare(spec);
      return null;
    });
    specs.put(spec.name(), spec);
  }

  @Override
  public void publish(String queue, Message message) {
    publishAll(queue, List.of(message));
  }

  @Override
  public void publishAll(String queue, List<Message> messages) {
    QueueSpec spec = spec(queue);
    if (messages.isEmpty()) return;
    List<Message> stored = dueOrDelayed(messages);
    unavailableOnFailure(
        "publish " + messages.size() + " message(s) to queue '" + queue + "'", () -> {
          table.insert(spec, stored, notifier == null);
          return null;
        });
    counters.publishedDelayed(queue, (int)
        stored.stream().filter(message -> message.notBefore() != null).count());
    if (notifier != null) notifier.published(queue);
    wakeups.wake(queue); // consumers in this process need not wait for the NOTIFY round trip
  }

  /**
   * The messages as the table stores them: a not-before that this node's clock has passed is dropped
   * (the message is due now); one ahead is kept, and then compared with the database's clock.
   */
  private static List<Message> dueOrDelayed(List<Message> messages) {
    Instant now = Instant.now();
    var stored = new ArrayList<Message>(messages.size());
    for (Message message : messages) {
      boolean delayed = message.delayAfter(now).isPositive(); // refuses one too far ahead
      stored.add(
          delayed || message.notBefore() == null
              ? message
              : new Message(message.body(), message.priority(), message.headers()));
    }
    return stored;
  }

  @Override
  public Subscription subscribe(String queue, int consumers, int prefetch, MessageHandler handler) {
    if (consumers < 1)
      throw new IllegalArgumentException("consumers must be at least 1 but was " + consumers);
    if (prefetch < 1)
      throw new IllegalArgumentException("prefetch must be at least 1 but was " + prefetch);
    Objects.requireNonNull(handler, "handler");
    QueueSpec spec = spec(queue);
    return tracked(onClose -> new PostgresSubscription(
        table, wakeups, options, spec, consumers, prefetch, handler, onClose, counters));
  }

  @Override
  public Subscription subscribeBatches(
      String queue, int consumers, int batchSize, BatchHandler handler) {
    if (consumers < 1)
      throw new IllegalArgumentException("consumers must be at least 1 but was " + consumers);
    if (batchSize < 1)
      throw new IllegalArgumentException("batchSize must be at least 1 but was " + batchSize);
    Objects.requireNonNull(handler, "handler");
    QueueSpec spec = spec(queue);
    BatchHandler isolating = PoisonIsolation.around(queue, handler, metrics);
    return tracked(onClose -> new PostgresBatchSubscription(
        table, wakeups, options, spec, consumers, batchSize, isolating, onClose, counters));
  }

  /** Starts a subscription that this queue closes with itself until it is closed on its own. */
  private Subscription tracked(Function<Runnable, ConsumerSubscription> start) {
    var holder = new AtomicReference<@Nullable ConsumerSubscription>();
    ConsumerSubscription subscription = start.apply(() -> {
      ConsumerSubscription started = holder.get();
      if (started != null) subscriptions.remove(started);
    });
    holder.set(subscription);
    subscriptions.add(subscription);
    return subscription;
  }

  @Override
  public void delete(String queue) {
    unavailableOnFailure("delete queue '" + queue + "'", () -> {
      table.delete(queue);
      return null;
    });
    specs.remove(queue);
  }

  @Override
  public long depth(String queue) {
    spec(queue);
    return unavailableOnFailure("measure queue '" + queue + "'", () -> table.depth(queue));
  }

  @Override
  public OptionalLong delayed(String queue) {
    spec(queue);
    return OptionalLong.of(unavailableOnFailure(
        "count delayed messages of '" + queue + "'", () -> table.delayed(queue)));
  }

  @Override
  public boolean requeueDeadLetter(String queue, String messageId) {
    spec(queue);
    if (!storable(messageId)) return false;
    return unavailableOnFailure(
        "requeue dead letter " + LogText.of(messageId) + " of queue '" + queue + "'",
        () -> table.requeueDeadLetter(queue, messageId));
  }

  @Override
  public boolean dropDeadLetter(String queue, String messageId) {
    spec(queue);
    if (!storable(messageId)) return false;
    return unavailableOnFailure(
        "drop dead letter " + LogText.of(messageId) + " of queue '" + queue + "'",
        () -> table.dropDeadLetter(queue, messageId));
  }

  /**
   * Whether a letter could have {@code messageId}: the table cannot hold a NUL, so no letter has one,
   * and asking the database about it would fail the statement (an outage to the caller).
   */
  private static boolean storable(String messageId) {
    return StoredText.problem(messageId) == null;
  }

  @Override
  public Optional<Duration> oldestAge(String queue) {
    return Optional.of(table.oldestAge(queue));
  }

  @Override
  public List<DeadLetter> deadLetters(String queue, int limit) {
    if (limit < 1) throw new IllegalArgumentException("limit must be at least 1 but was " + limit);
    spec(queue);
    return unavailableOnFailure(
        "read dead letters of queue '" + queue + "'", () -> table.deadLetters(queue, limit));
  }

  @Override
  public void close() {
    for (ConsumerSubscription subscription : List.copyOf(subscriptions)) subscription.close();
    if (notifier != null) notifier.close();
    listener.close();
  }

  /**
   * Ends every lease at once, as if each had run out, so that what they held is delivered again now
   * rather than after the visibility timeout (the delivery counts towards its max deliveries). Only for
   * a database no other live process uses, at the start of the one that does (the embedded default):
   * every lease there was taken by an earlier process of it that was killed. How many there were.
   */
  public int endLeasesOfAnEarlierProcess() {
    return unavailableOnFailure("end the leases of an earlier process", table::endEveryLease);
  }

  /** Test hook: stop as a killed process would, leaving every message in progress leased until its timeout. */
  void abandon() {
    for (ConsumerSubscription subscription : List.copyOf(subscriptions)) subscription.abandon();
    if (notifier != null) notifier.close();
    listener.close();
  }

  public String describe() {
    return "PostgreSQL queue tables at " + database.describe();
  }

  private QueueSpec spec(String queue) {
    QueueSpec known = specs.get(queue);
    if (known != null) return known;
    // Declared by another node or before a restart.
    QueueSpec stored = unavailableOnFailure(
            "look up queue '" + queue + "'", () -> table.spec(queue))
        .orElseThrow(() -> new UnknownQueueException(queue));
    specs.put(queue, stored);
    return stored;
  }

  private interface Call<T extends @Nullable Object> {
    T run();
  }

  private <T extends @Nullable Object> T unavailableOnFailure(String what, Call<T> call) {
    try {
      return call.run();
    } catch (JdbiException e) {
      throw new QueueUnavailableException(
          "cannot " + what + " at " + database.describe() + ": " + e.getMessage(), e);
    }
  }
}
