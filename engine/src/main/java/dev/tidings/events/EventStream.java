package dev.tidings.events;

import java.util.List;

/**
 * Where the log is offered to a shop's systems as a stream they read from any offset, beside
 * {@code GET /api/v1/events?after=}: a RabbitMQ stream when RabbitMQ is configured. Each event goes
 * once in log order; after a failure, the feeder starts again from the last event the stream holds, so
 * a reader may see an event twice only if the stream confirmed it without the feeder hearing so.
 */
public interface EventStream extends AutoCloseable {
  /** The position of the newest event the stream holds; 0 when it holds none. */
  long lastPosition();

  /** Appends {@code events} in order; returns once the stream confirmed every one of them. */
  void append(List<CloudEvent> events);

  /** The stream's name, which keeps its place in the log across restarts of the nodes. */
  String name();

  /** Where the stream is, for the log. */
  String describe();

  @Override
  void close();
}
