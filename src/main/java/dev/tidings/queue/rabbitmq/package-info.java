/** Work queues on RabbitMQ: durable priority queues, publisher confirms, manual acks. */
@NullMarked
package dev.tidings.queue.rabbitmq;

import org.jspecify.annotations.NullMarked;
