package dev.tidings.queue.rabbitmq;

import java.util.Locale;

/**
 * What kind of RabbitMQ queue holds a Tidings queue's lanes and delay queues.
 *
 * <ul>
 *   <li>{@link #CLASSIC}: one node holds each queue; the node's loss makes its queues unavailable
 *       until it is back (with the messages it had written to disk).
 *   <li>{@link #QUORUM}: each queue is replicated on three nodes by Raft; a publish is confirmed
 *       once a majority has it, so one node's loss loses no confirmed message, and dead-lettering
 *       out of the queue is at least once.
 * </ul>
 */
public enum RabbitQueueType {
  CLASSIC,
  QUORUM;

  /** The value of {@code x-queue-type} the broker knows it by. */
  String argument() {
    return name().toLowerCase(Locale.ROOT);
  }
}
