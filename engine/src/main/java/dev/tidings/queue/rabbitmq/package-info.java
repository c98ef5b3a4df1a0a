/**
 * Work queues on RabbitMQ: a durable classic queue per priority consumed through one channel per
 * consumer that chooses locally (strict priorities with a share for the oldest message), delay queues
 * for retry backoff, deliveries counted by Tidings, a dead-letter stream, mandatory confirmed
 * publishes on a connection of their own, and a ladder of TTL queues shared by every queue where
 * delayed messages wait without a consumer. {@link dev.tidings.queue.rabbitmq.RabbitLayout} and
 * {@link dev.tidings.queue.rabbitmq.DelayLadder} name the broker objects.
 */
@NullMarked
package dev.tidings.queue.rabbitmq;

import org.jspecify.annotations.NullMarked;
