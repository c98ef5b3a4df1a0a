/**
 * The work-queue port: durable queues of opaque messages with priorities, consumed at least once.
 *
 * <p>{@link dev.tidings.queue.WorkQueue} is what capabilities use to hand work to workers: a campaign
 * partition to send, a batch of delivery events to apply, a fan-out to run. Seed 05 is the model:
 * triggered work (high priority) overtakes bulk partitions (low priority) on the same queue, while a
 * consumer that is free takes bulk work when nothing urgent waits.
 *
 * <p>What every implementation promises (and {@code WorkQueueContract} checks):
 * <ul>
 *   <li>{@code publish} returns only once the message is durable; when it cannot be, it throws
 *       {@link dev.tidings.queue.QueueUnavailableException}. Publishers block rather than buffer
 *       without bound. Publishing to a queue nobody declared throws
 *       {@link dev.tidings.queue.UnknownQueueException}.
 *   <li>Higher priority first; publish order within one priority (for one publisher, one consumer,
 *       prefetch 1; with more consumers, work overlaps and order is not meaningful).
 *   <li>At least once: a consumer that dies holding messages (its process killed, its connection
 *       lost) leaves them to be delivered again with {@link dev.tidings.queue.Delivery#redelivered()}.
 *       Handlers must be idempotent.
 *   <li>A handler answers with a {@link dev.tidings.queue.Disposition}: ack, retry (an exception
 *       counts as one) until {@link dev.tidings.queue.QueueSpec#maxDeliveries()}, or reject; messages
 *       given up on become {@link dev.tidings.queue.DeadLetter}s with the reason.
 *   <li>Each consumer holds at most {@code prefetch} unsettled messages; closing a
 *       {@link dev.tidings.queue.Subscription} waits for the handlers in progress and settles them.
 *   <li>A batch consumer ({@code subscribeBatches}) gets whatever is waiting, up to its batch size, in
 *       one call; every message is acknowledged except those its
 *       {@link dev.tidings.queue.BatchResult} names, and an exception retries the whole batch.
 *   <li>A failed delivery waits its {@link dev.tidings.queue.RetryPolicy} backoff before the next one,
 *       without holding up other messages. A handler still running after
 *       {@link dev.tidings.queue.QueueSpec#handlerTimeout()} is interrupted and its delivery counts as
 *       failed; a live handler within its limit keeps its messages however long it takes.
 *   <li>Of every {@link dev.tidings.queue.QueueSpec#oldestEvery()} deliveries a consumer takes, one goes
 *       to the oldest waiting message whatever its priority, so bulk work is never starved.
 *   <li>A message with a not-before instant ({@link dev.tidings.queue.Message#notBefore(java.time.Instant)})
 *       is durable at once and delivered only from that instant on: soon after (to the database's
 *       microsecond on the queue tables, rounded up to whole seconds on RabbitMQ), at least once, by
 *       priority once due, without holding up due messages, however the nodes or the queue's server
 *       restart in between; see {@link dev.tidings.queue.WorkQueue#publish}.
 * </ul>
 *
 * <p>Implementations: {@code dev.tidings.queue.postgres.PostgresWorkQueue} (queue tables in the
 * embedded or an external PostgreSQL; leases with a visibility timeout, set-based claims and
 * settlements, debounced LISTEN/NOTIFY wake-ups) and
 * {@code dev.tidings.queue.rabbitmq.RabbitWorkQueue} (a durable classic queue per priority, delay
 * queues for retry backoff, a ladder of TTL queues for delayed messages, a dead-letter stream,
 * publisher confirms, manual acks). Headers whose
 * names start with {@code x-tidings-} are reserved for their bookkeeping.
 */
@NullMarked
package dev.tidings.queue;

import org.jspecify.annotations.NullMarked;
