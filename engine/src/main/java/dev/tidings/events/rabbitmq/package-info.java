/** The event log as a RabbitMQ stream: an adapter of {@link dev.tidings.events.EventStream}. */
@NullMarked
package dev.tidings.events.rabbitmq;

import org.jspecify.annotations.NullMarked;
