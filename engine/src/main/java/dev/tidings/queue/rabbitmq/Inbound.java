package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;

/**
 * A message as a consumer channel received it: from which lane, on which incarnation of the channel
 * (an ack only means something on the incarnation that received it), and the broker's envelope data.
 */
@SuppressWarnings("ArrayRecordComponent") // the body as received, never compared
record Inbound(
    int lane,
    long incarnation,
    long deliveryTag,
    boolean redelivered,
    AMQP.BasicProperties properties,
    byte[] body) {}
