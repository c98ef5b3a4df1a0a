package dev.tidings.events;

import dev.tidings.Json;
import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.Election;
import dev.tidings.queue.Message;
import dev.tidings.queue.WorkQueue;
import dev.tidings.storage.AdvisoryLock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import tools.jackson.databind.node.ArrayNode;

/**
 * Moves events from the outbox into the log, where each takes its position, and onto each listener's
 * work queue. Every node runs it; a transaction-scoped advisory lock lets one relay at a time, so the
 * positions commit in the order they were taken and a reader of the log never passes one that
 * commits later. A node killed mid-relay rolls its transaction back and the next round takes the same
 * rows again: the listeners may then hear an event twice (by its id), never miss it.
 */
public final class EventRelay {
  /** Events relayed, by type. */
  public static final String RELAYED = "tidings_events_relayed_total";

  /** How long the oldest event waiting in the outbox has waited. */
  public static final String LAG = "tidings_events_relay_lag_seconds";

  /** Outbox rows taken per transaction: each may hold a whole batch of receipts. */
  static final int ROWS_PER_ROUND = 16;

  /** Events per queue message to one listener. */
  static final int EVENTS_PER_MESSAGE = 500;

  private static final Duration EVERY = Duration.ofMillis(100);
  private static final int PRIORITY = 5;

  private final Jdbi jdbi;
  private final WorkQueue queue;
  private final EventRoutes routes;
  private final InstantSource clock;
  private final Counter[] relayed = new Counter[CloudEventType.values().length];
  private final AtomicLong lagMillis = new AtomicLong();

  public EventRelay(
      Jdbi jdbi, WorkQueue queue, EventRoutes routes, InstantSource clock, MeterRegistry metrics) {
    this.jdbi = jdbi;
    this.queue = queue;
    this.routes = routes;
    this.clock = clock;
    for (CloudEventType type : CloudEventType.values())
      relayed[type.ordinal()] = Counter.builder(RELAYED)
          .description("Events moved from the outbox into the log and to their listeners")
          .tag("type", type.typeName())
          .register(metrics);
    Gauge.builder(LAG, lagMillis, lag -> lag.get() / 1000.0)
        .description(
            "How long the oldest event waiting in the outbox has waited (0 when none waits)")
        .strongReference(true)
        .register(metrics);
  }

  /** Declares every listener's queue: the relay publishes to them from any node. */
  public void declareQueues() {
    routes.listeners().forEach(listener -> queue.declare(EventRoutes.queue(listener)));
  }

  /** The background job: every node tries, one relays at a time, until the outbox is empty. */
  public BackgroundJob job() {
    return BackgroundJob.of("event-relay", Duration.ZERO, EVERY, Election.everyNode(), this::drain);
  }

  /** Relays until the outbox is empty or another node holds the relay; answers how many it relayed. */
  public long drain() {
    long total = 0;
    while (true) {
      Optional<Integer> round = relayOnce();
      if (round.isEmpty()) break;
      total += round.get();
      if (round.get() == 0) break;
    }
    measureLag();
    return total;
  }

  /**
   * One transaction: up to {@link #ROWS_PER_ROUND} outbox rows into the log and onto the listeners'
   * queues. Empty when another node is relaying.
   */
  public Optional<Integer> relayOnce() {
    return jdbi.inTransaction(handle -> {
      boolean mine = handle
          .createQuery("SELECT pg_try_advisory_xact_lock(:key)")
          .bind("key", AdvisoryLock.EVENT_RELAY.key())
          .mapTo(Boolean.class)
          .one();
      if (!mine) return Optional.<Integer>empty();
      List<CloudEvent> events = take(handle);
      publish(events);
      for (CloudEvent event : events) relayed[event.type().ordinal()].increment();
      return Optional.of(events.size());
    });
  }

  /**
   * Takes the oldest outbox rows, expands them into events here rather than in SQL (the database every
   * node shares then only stores them; the JSON of each event is built by the node that relays, and
   * nodes scale out where the database does not), reserves their positions as one block of the
   * sequence (only the relay, under its lock, draws from it) and inserts them in one statement.
   */
  private static List<CloudEvent> take(Handle handle) {
    List<OutboxRow> rows = handle
        .createQuery("""
            DELETE FROM event_outbox WHERE id IN (
              SELECT id FROM event_outbox ORDER BY id LIMIT :rows)
            RETURNING id, CAST(events AS text) AS events""")
        .bind("rows", ROWS_PER_ROUND)
        .map((row, context) -> new OutboxRow(row.getLong("id"), row.getString("events")))
        .list();
    List<OutboxRow.Unplaced> taken = rows.stream()
        .sorted(Comparator.comparingLong(OutboxRow::id))
        .flatMap(row -> row.expand().stream())
        .toList();
    if (taken.isEmpty()) return List.of();
    long last = handle
        .createQuery("SELECT setval('event_log_position', nextval('event_log_position') + :n - 1)")
        .bind("n", taken.size())
        .mapTo(Long.class)
        .one();
    long first = last - taken.size() + 1;
    int n = taken.size();
    List<CloudEvent> events = new ArrayList<>(n);
    // One array per column: unnest zips them back into rows, so the insert is one statement.
    List<Long> positions = new ArrayList<>(n);
    List<String> ids = new ArrayList<>(n);
    List<String> types = new ArrayList<>(n);
    List<String> subjects = new ArrayList<>(n);
    List<String> occurred = new ArrayList<>(n);
    List<String> data = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      CloudEvent event = taken.get(i).at(first + i);
      events.add(event);
      positions.add(event.position());
      ids.add(event.id());
      types.add(event.type().typeName());
      subjects.add(event.subject());
      occurred.add(event.time().toString());
      data.add(event.data().toString());
    }
    handle
        .createUpdate("""
            INSERT INTO event_log (position, id, type, subject, occurred, data)
            SELECT position, id, type, subject, CAST(occurred AS timestamptz), CAST(data AS jsonb)
              FROM unnest(CAST(:positions AS bigint[]), CAST(:ids AS text[]), CAST(:types AS text[]),
                          CAST(:subjects AS text[]), CAST(:occurred AS text[]), CAST(:data AS text[]))
                   AS e (position, id, type, subject, occurred, data)""")
        .bindArray("positions", Long.class, positions)
        .bindArray("ids", String.class, ids)
        .bindArray("types", String.class, types)
        .bindArray("subjects", String.class, subjects)
        .bindArray("occurred", String.class, occurred)
        .bindArray("data", String.class, data)
        .execute();
    return events;
  }

  private void publish(List<CloudEvent> events) {
    Map<EventListener, List<CloudEvent>> byListener = new LinkedHashMap<>();
    for (CloudEvent event : events)
      for (EventListener listener : routes.of(event.type()))
        byListener.computeIfAbsent(listener, l -> new ArrayList<>()).add(event);
    byListener.forEach((listener, heard) -> {
      List<Message> messages = new ArrayList<>();
      for (int from = 0; from < heard.size(); from += EVENTS_PER_MESSAGE)
        messages.add(Message.of(
            body(heard.subList(from, Math.min(heard.size(), from + EVENTS_PER_MESSAGE))),
            PRIORITY));
      queue.publishAll(EventRoutes.queue(listener).name(), messages);
    });
  }

  static byte[] body(List<CloudEvent> events) {
    ArrayNode array = Json.MAPPER.createArrayNode();
    events.forEach(event -> array.add(event.json()));
    return array.toString().getBytes(StandardCharsets.UTF_8);
  }

  private void measureLag() {
    Optional<Instant> oldest = jdbi.withHandle(handle -> handle
        .createQuery("SELECT written_at FROM event_outbox ORDER BY id LIMIT 1")
        .mapTo(Instant.class)
        .findOne());
    lagMillis.set(oldest
        .map(at -> Math.max(0, Duration.between(at, clock.instant()).toMillis()))
        .orElse(0L));
  }
}
