package dev.tidings.queue.rabbitmq;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of {@link RabbitWorkQueue}.
 *
 * @param publishChannels channels publishes are spread over (each has its own confirm sequence)
 * @param maxUnconfirmedPerChannel publishes a channel may have awaiting the broker's confirm; a
 *     publisher finding every slot taken waits, so memory stays bounded when the broker slows down
 * @param confirmTimeout how long a publish waits for a slot and then for its confirm before it fails
 *     with {@link dev.tidings.queue.QueueUnavailableException}
 * @param queueType what kind of queue the lanes and delay queues are declared as
 */
public record RabbitQueueOptions(
    int publishChannels,
    int maxUnconfirmedPerChannel,
    Duration confirmTimeout,
    RabbitQueueType queueType) {
  public static final int DEFAULT_PUBLISH_CHANNELS = 4;
  public static final int DEFAULT_MAX_UNCONFIRMED_PER_CHANNEL = 256;
  public static final Duration DEFAULT_CONFIRM_TIMEOUT = Duration.ofSeconds(30);

  public RabbitQueueOptions {
    Objects.requireNonNull(confirmTimeout, "confirmTimeout");
    Objects.requireNonNull(queueType, "queueType");
    if (publishChannels < 1)
      throw new IllegalArgumentException(
          "publishChannels must be at least 1 but was " + publishChannels);
    if (maxUnconfirmedPerChannel < 1) {
      throw new IllegalArgumentException(
          "maxUnconfirmedPerChannel must be at least 1 but was " + maxUnconfirmedPerChannel);
    }
    if (confirmTimeout.toMillis() < 1)
      throw new IllegalArgumentException(
          "confirmTimeout must be positive but was " + confirmTimeout);
  }

  /** Classic queues, as before queue types could be chosen. */
  public RabbitQueueOptions(
      int publishChannels, int maxUnconfirmedPerChannel, Duration confirmTimeout) {
    this(publishChannels, maxUnconfirmedPerChannel, confirmTimeout, RabbitQueueType.CLASSIC);
  }

  public static RabbitQueueOptions defaults() {
    return new RabbitQueueOptions(
        DEFAULT_PUBLISH_CHANNELS, DEFAULT_MAX_UNCONFIRMED_PER_CHANNEL, DEFAULT_CONFIRM_TIMEOUT);
  }

  public RabbitQueueOptions withQueueType(RabbitQueueType type) {
    return new RabbitQueueOptions(publishChannels, maxUnconfirmedPerChannel, confirmTimeout, type);
  }
}
