package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.Channel;
import dev.tidings.queue.WorkQueue;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Where delayed messages wait on RabbitMQ, without a consumer and without the delayed-message plugin
 * (which keeps its messages on one node, unreplicated): a ladder of {@value #LEVELS} levels shared by
 * every Tidings queue of the virtual host.
 *
 * <p>Level {@code k} is a durable queue {@code tidings.delay.<type>.<k>} whose queue-wide message TTL
 * is 2^k seconds and which dead-letters into the topic exchange of level {@code k - 1} (level 0 into
 * {@code tidings.delay.<type>.due}), and a topic exchange of the same name. A delayed message's
 * routing key spells its delay in whole seconds in binary, one word per level from the highest, then
 * its lane: {@code 0.0. ... .1.0.1.<queue>.p<lane>} for 5 s. The exchange of level {@code k} sends a
 * message whose word for {@code k} is 1 into the queue of level {@code k}, and one whose word is 0 on
 * to the exchange of level {@code k - 1}; the {@code due} exchange sends it into its lane by the words
 * after the levels. Dead-lettering keeps the routing key, so a message walks down the ladder and waits
 * in the queue of each level whose bit is set: exactly its delay. Every message of one level's queue
 * has the same TTL, so the one at its head is always the first to expire.
 *
 * <p>The levels are of the lanes' type: quorum levels dead-letter at least once (a message leaves a
 * level only once the next has confirmed it), classic ones at most once, as the retry delay queues do
 * (see {@link RabbitLayout}). A message whose lane is gone when it arrives (its queue deleted) goes,
 * through the {@code due} exchange's alternate exchange, to {@code tidings.delay.<type>.unrouted},
 * where it is kept for {@link #UNROUTED_TTL} for an operator to look at, instead of being dropped or
 * (quorum) held back in level 0 for ever.
 *
 * <p>Routing keys are at most 255 bytes: {@value #LEVELS} words of one letter and their dots take 52,
 * which leaves the 203 of the longest lane name ({@code <200 characters>.p9}). Hence 26 levels: delays
 * up to 2^26 - 1 seconds ({@link WorkQueue#MAX_DELAY}, about 776 days).
 */
final class DelayLadder {
  static final int LEVELS = 26;
  static final Duration UNROUTED_TTL = Duration.ofDays(14);
  private static final long UNROUTED_MAX_LENGTH = 100_000;

  static {
    if (!WorkQueue.MAX_DELAY.equals(Duration.ofSeconds((1L << LEVELS) - 1)))
      throw new IllegalStateException("WorkQueue.MAX_DELAY is not what the ladder can wait");
  }

  private final RabbitQueueType type;
  private final String prefix;

  DelayLadder(RabbitQueueType type) {
    this.type = type;
    this.prefix = "tidings.delay." + type.argument();
  }

  /** The queue of {@code level}, which holds a message 2^level seconds. */
  String queue(int level) {
    return prefix + "." + level;
  }

  /** The exchange of {@code level}: into its queue, or on down the ladder. */
  String exchange(int level) {
    return prefix + "." + level;
  }

  /** Below level 0: into the lane. */
  String dueExchange() {
    return prefix + ".due";
  }

  String unrouted() {
    return prefix + ".unrouted";
  }

  /** Whole seconds a message due {@code delay} from now waits: rounded up, never less. */
  static long seconds(Duration delay) {
    long seconds = delay.getSeconds();
    return delay.getNano() > 0 ? seconds + 1 : seconds;
  }

  /** Where a message that waits {@code seconds} enters: the exchange of its highest level. */
  String entry(long seconds) {
    checkSeconds(seconds);
    return exchange(63 - Long.numberOfLeadingZeros(seconds));
  }

  /** The routing key of a message that waits {@code seconds} before it goes into {@code lane}. */
  static String routingKey(long seconds, String lane) {
    checkSeconds(seconds);
    var key = new StringBuilder(2 * LEVELS + lane.length());
    for (int level = LEVELS - 1; level >= 0; level--)
      key.append((seconds >>> level & 1) == 1 ? "1." : "0.");
    return key.append(lane).toString();
  }

  private static void checkSeconds(long seconds) {
    if (seconds < 1 || seconds >= 1L << LEVELS)
      throw new IllegalArgumentException("a delay of " + seconds + " s is not on the ladder");
  }

  /** The pattern of {@code level}'s word set to {@code bit}, whatever the others and the lane. */
  private static String levelPattern(int level, char bit) {
    return "*.".repeat(LEVELS - 1 - level) + bit + ".#";
  }

  /** Declares every level, exchange and binding; idempotent, so any number of nodes may do it at once. */
  void declare(Channel channel) throws IOException {
    channel.exchangeDeclare(unrouted(), "fanout", true);
    channel.queueDeclare(unrouted(), true, false, false, unroutedArguments());
    channel.queueBind(unrouted(), unrouted(), "");
    channel.exchangeDeclare(
        dueExchange(), "topic", true, false, Map.of("alternate-exchange", unrouted()));
    for (int level = 0; level < LEVELS; level++) {
      String below = level == 0 ? dueExchange() : exchange(level - 1);
      channel.exchangeDeclare(exchange(level), "topic", true);
      channel.queueDeclare(queue(level), true, false, false, levelArguments(level));
      channel.queueBind(queue(level), exchange(level), levelPattern(level, '1'));
      channel.exchangeBind(below, exchange(level), levelPattern(level, '0'));
    }
  }

  /** Routes messages that leave the ladder for {@code lane} into it. */
  void bindLane(Channel channel, String lane) throws IOException {
    channel.queueBind(lane, dueExchange(), "*.".repeat(LEVELS) + lane);
  }

  /** Declare arguments of the queue of {@code level}. */
  Map<String, Object> levelArguments(int level) {
    Map<String, Object> expiry = Map.of(
        "x-message-ttl",
        (1L << level) * 1_000,
        "x-dead-letter-exchange",
        level == 0 ? dueExchange() : exchange(level - 1));
    return switch (type) {
      case CLASSIC -> expiry;
      case QUORUM -> Map.copyOf(RabbitLayout.quorum(expiry));
    };
  }

  private Map<String, Object> unroutedArguments() {
    var arguments = new HashMap<String, Object>();
    arguments.put("x-message-ttl", UNROUTED_TTL.toMillis());
    arguments.put("x-max-length", UNROUTED_MAX_LENGTH);
    if (type == RabbitQueueType.QUORUM)
      arguments.put("x-queue-type", RabbitQueueType.QUORUM.argument());
    return Map.copyOf(arguments);
  }

  /** Messages waiting on the ladder, of every queue, by asking each level. */
  long waiting(Channel channel) throws IOException {
    long waiting = 0;
    for (int level = 0; level < LEVELS; level++)
      waiting += channel.queueDeclarePassive(queue(level)).getMessageCount();
    return waiting;
  }
}
