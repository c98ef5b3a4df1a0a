package dev.tidings.journeys;

import dev.tidings.queue.Codec;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Topic;
import java.time.Instant;

/**
 * A person's entry into a journey to look at again, not before {@code at}: one queue message per
 * person waiting, so a million people waiting cost the queue, not a scan.
 */
public record Due(long journeyId, String subscriberId, int entry, Instant at) {
  public static final Topic<Due> TOPIC =
      new Topic<>(QueueSpec.of("tidings.journeys.due"), Codec.json(Due.class));

  Key key() {
    return new Key(journeyId, subscriberId, entry);
  }

  /** One entry of one person into one journey. */
  public record Key(long journeyId, String subscriberId, int entry) {}
}
