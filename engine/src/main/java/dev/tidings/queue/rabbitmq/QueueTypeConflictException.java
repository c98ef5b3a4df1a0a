package dev.tidings.queue.rabbitmq;

import dev.tidings.TidingsException;

/**
 * RabbitMQ refused to declare a queue because it already exists with other arguments, most often
 * another type: a queue's type is fixed when it is created. Retrying cannot help, so this is not a
 * {@link dev.tidings.queue.QueueUnavailableException}: the node stops with this message.
 */
public final class QueueTypeConflictException extends TidingsException {
  QueueTypeConflictException(String queue, RabbitQueueType wanted, String brokerText) {
    super("RabbitMQ already holds queue '" + queue + "' with arguments that differ from what "
        + "TIDINGS_AMQP_QUEUE_TYPE=" + wanted.argument() + " declares (" + brokerText + "). A "
        + "queue's type cannot change once created: set TIDINGS_AMQP_QUEUE_TYPE back to what the "
        + "queue is, or let its consumers drain it, delete it (rabbitmqctl delete_queue " + queue
        + ") and start again so that it is declared anew.");
  }
}
