package dev.tidings.events;

import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.Election;
import dev.tidings.storage.AdvisoryLock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * Feeds the event log to the {@link EventStream}, in log order, from the position the stream holds
 * last: one node at a time (an advisory lock), so the stream holds each event once and in order. It
 * reads the log as the events API does, so a stream that is away holds up nothing else: the relay and
 * the listeners go on, and the stream catches up when it is back.
 */
public final class EventStreamFeeder {
  /** Events appended to the stream. */
  public static final String STREAMED = "tidings_events_streamed_total";

  private static final Duration EVERY = Duration.ofMillis(200);
  private static final int BATCH = EventLog.MAX_LIMIT;

  private final Jdbi jdbi;
  private final EventLog log;
  private final EventStream stream;
  private final Counter streamed;

  public EventStreamFeeder(Jdbi jdbi, EventLog log, EventStream stream, MeterRegistry metrics) {
    this.jdbi = jdbi;
    this.log = log;
    this.stream = stream;
    this.streamed = Counter.builder(STREAMED)
        .description("Events appended to the RabbitMQ stream of the event log")
        .register(metrics);
  }

  public BackgroundJob job() {
    return BackgroundJob.of(
        "event-stream",
        Duration.ZERO,
        EVERY,
        Election.advisoryLeader(jdbi, AdvisoryLock.EVENT_STREAM),
        this::feed);
  }

  /** Appends what the log holds past the stream's last event; answers how many it appended. */
  public long feed() {
    long cursor = jdbi.withHandle(handle -> handle
            .createQuery("SELECT position FROM event_stream_cursor WHERE stream = :stream")
            .bind("stream", stream.name())
            .mapTo(Long.class)
            .findOne())
        // a stream fed before this table knew it (or by another installation's log) says itself
        .orElseGet(stream::lastPosition);
    long appended = 0;
    while (true) {
      List<CloudEvent> next = log.after(cursor, BATCH, Set.of());
      if (next.isEmpty()) return appended;
      stream.append(next);
      cursor = next.getLast().position();
      long confirmed = cursor;
      jdbi.useHandle(handle -> handle
          .createUpdate("""
              INSERT INTO event_stream_cursor (stream, position) VALUES (:stream, :position)
              ON CONFLICT (stream) DO UPDATE SET position = excluded.position""")
          .bind("stream", stream.name())
          .bind("position", confirmed)
          .execute());
      appended += next.size();
      streamed.increment(next.size());
    }
  }
}
