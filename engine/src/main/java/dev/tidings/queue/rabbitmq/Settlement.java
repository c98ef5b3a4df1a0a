package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a handled message turns into before its ack: nothing (done), a copy in its lane (retry now), a
 * copy in a delay queue (retry after the backoff) or a dead letter.
 *
 * <p>Classic queues have no delivery limit, and their {@code redelivered} flag is set once however
 * often a consumer died holding the message, so Tidings counts deliveries itself in
 * {@code x-tidings-deliveries}: every copy carries the deliveries before it. A message the broker
 * redelivers (its consumer died or lost its channel) is not handed to a handler: that lost delivery
 * is counted by publishing a copy with the count raised, or a dead letter once the count reaches
 * {@link QueueSpec#maxDeliveries()}, and then acking the original.
 */
final class Settlement {
  private final InstantSource clock;

  Settlement(InstantSource clock) {
    this.clock = clock;
  }

  static Delivery delivery(Inbound inbound) {
    AMQP.BasicProperties properties = inbound.properties();
    Map<String, Object> headers = properties.getHeaders();
    int before = TidingsHeaders.integer(headers, TidingsHeaders.DELIVERIES, 0);
    return new Delivery(
        messageId(inbound),
        inbound.body(),
        priority(properties),
        before + 1,
        TidingsHeaders.user(headers));
  }

  /** The copy of a message whose delivery was lost with its consumer, counting that delivery. */
  ConfirmingPublisher.Outgoing afterLostDelivery(
      QueueSpec spec, RabbitLayout layout, Inbound inbound) {
    int deliveries = deliveriesSoFar(inbound) + 1;
    if (deliveries >= spec.maxDeliveries()) {
      return deadLetter(
          layout,
          inbound,
          deliveries,
          "its consumer stopped (died, lost its connection or its channel) before settling it, "
              + "delivery " + deliveries + " of " + spec.maxDeliveries());
    }
    return copy(
        layout.lane(inbound.lane()), inbound, Map.of(TidingsHeaders.DELIVERIES, deliveries));
  }

  /** What {@code disposition} of this delivery requires to be published before the ack; empty for none. */
  Optional<ConfirmingPublisher.Outgoing> after(
      QueueSpec spec, RabbitLayout layout, Inbound inbound, Disposition disposition) {
    int deliveries = deliveriesSoFar(inbound) + 1;
    return switch (disposition) {
      case Disposition.Ack ack -> Optional.empty();
      case Disposition.Reject reject ->
        Optional.of(deadLetter(layout, inbound, deliveries, reject.reason()));
      case Disposition.Retry retry
      when deliveries >= spec.maxDeliveries() ->
        Optional.of(deadLetter(layout, inbound, deliveries, retry.reason()));
      case Disposition.Retry retry -> Optional.of(retry(spec, layout, inbound, deliveries));
    };
  }

  private ConfirmingPublisher.Outgoing retry(
      QueueSpec spec, RabbitLayout layout, Inbound inbound, int deliveries) {
    Duration backoff = Duration.ofMillis(spec.retry().backoffAfter(deliveries).toMillis());
    if (backoff.isZero()) {
      return copy(
          layout.lane(inbound.lane()), inbound, Map.of(TidingsHeaders.DELIVERIES, deliveries));
    }
    return copy(
        layout.delayQueue(backoff),
        inbound,
        Map.of(
            TidingsHeaders.DELIVERIES,
            deliveries,
            TidingsHeaders.LANE,
            RabbitLayout.laneKey(inbound.lane())));
  }

  /** The same message back in its lane with its count unchanged: for what a closing consumer received but never handed out. */
  static ConfirmingPublisher.Outgoing putBack(RabbitLayout layout, Inbound inbound) {
    return copy(layout.lane(inbound.lane()), inbound, Map.of());
  }

  private ConfirmingPublisher.Outgoing deadLetter(
      RabbitLayout layout, Inbound inbound, int deliveries, String reason) {
    return copy(
        layout.deadLetters(),
        inbound,
        Map.of(
            TidingsHeaders.DELIVERIES, deliveries,
            TidingsHeaders.REASON, reason,
            TidingsHeaders.DEAD_AT, TidingsHeaders.micros(clock.instant())));
  }

  private static ConfirmingPublisher.Outgoing copy(
      String queue, Inbound inbound, Map<String, Object> bookkeeping) {
    AMQP.BasicProperties received = inbound.properties();
    var headers = TidingsHeaders.republished(received.getHeaders(), bookkeeping);
    return new ConfirmingPublisher.Outgoing(
        queue,
        RabbitWorkQueue.properties(messageId(inbound), priority(received), headers),
        inbound.body());
  }

  private static int deliveriesSoFar(Inbound inbound) {
    return TidingsHeaders.integer(inbound.properties().getHeaders(), TidingsHeaders.DELIVERIES, 0);
  }

  private static String messageId(Inbound inbound) {
    return Objects.requireNonNullElse(
        inbound.properties().getMessageId(), "tag-" + inbound.deliveryTag());
  }

  private static int priority(AMQP.BasicProperties properties) {
    return properties.getPriority() == null ? 0 : properties.getPriority();
  }
}
