package dev.tidings.queue.rabbitmq;

import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The RabbitMQ objects behind one Tidings queue {@code <name>}:
 *
 * <ul>
 *   <li>one durable queue (classic or quorum, see {@link RabbitQueueType}) per priority, {@code <name>.p0} to {@code <name>.p<maxPriority>}
 *       (lanes), so that a consumer sees the head of every priority and can serve the oldest
 *       message whatever its priority, which a single priority queue cannot offer;
 *   <li>{@code <name>.retry.<millis>}: one delay queue per distinct backoff of the retry policy, with
 *       that queue-wide TTL, dead-lettering into the headers exchange {@code <name>.requeue}, which
 *       routes each message back to its lane by its {@code x-tidings-lane} header (every message of a
 *       delay queue has the same TTL, so expiry at the head is exact);
 *   <li>{@code <name>.dead-letters}: a stream of the messages given up on, read from its end;
 *   <li>each lane bound to the end of the {@link DelayLadder}, shared by every queue, where delayed
 *       messages wait until they are due.
 * </ul>
 *
 * <p>Quorum lanes and delay queues dead-letter at least once ({@code x-dead-letter-strategy}, which
 * the broker honours only with {@code x-overflow: reject-publish}): a delay queue's expired message
 * leaves it only once its lane confirmed it. Tidings counts deliveries itself across the copies of a
 * message (see {@link Settlement}), and a copy the broker returns is counted and replaced as soon as
 * a consumer sees it again, so one copy is returned about once. {@link #RETURNS_LIMIT} is the
 * broker's backstop for a copy returned again and again without any consumer settling it: it then
 * goes to the dead-letter stream rather than looping.
 */
record RabbitLayout(String queue, int maxPriority) {
  RabbitLayout {
    if (maxPriority < 0 || maxPriority > QueueSpec.MAX_PRIORITY)
      throw new IllegalArgumentException("maxPriority out of range: " + maxPriority);
  }

  /**
   * {@code x-delivery-limit} of quorum lanes: returns of one copy before the broker dead-letters it.
   * Not the spec's max deliveries, which counts across copies and which a later version may change:
   * a queue's arguments are fixed at its creation, so a per-spec value would refuse the next declare.
   */
  static final int RETURNS_LIMIT = 20;

  static RabbitLayout of(QueueSpec spec) {
    return new RabbitLayout(spec.name(), spec.maxPriority());
  }

  int lanes() {
    return maxPriority + 1;
  }

  /** The lane of {@code priority}; above the queue's maximum counts as the maximum, as RabbitMQ's own priority queues do. */
  int laneOf(int priority) {
    return Math.min(Math.max(priority, 0), maxPriority);
  }

  String lane(int lane) {
    return laneName(queue, lane);
  }

  static String laneName(String queue, int lane) {
    return queue + ".p" + lane;
  }

  /** The value of {@code x-tidings-lane} that routes a message from a delay queue back to {@code lane}. */
  static String laneKey(int lane) {
    return "p" + lane;
  }

  String deadLetters() {
    return queue + ".dead-letters";
  }

  String requeueExchange() {
    return queue + ".requeue";
  }

  String delayQueue(Duration backoff) {
    return queue + ".retry." + backoff.toMillis();
  }

  /** Declare arguments of every lane. */
  Map<String, Object> laneArguments(RabbitQueueType type) {
    return switch (type) {
      case CLASSIC -> Map.of();
      case QUORUM -> {
        var arguments = quorum(
            Map.of("x-dead-letter-exchange", "", "x-dead-letter-routing-key", deadLetters()));
        arguments.put("x-delivery-limit", RETURNS_LIMIT);
        yield Map.copyOf(arguments);
      }
    };
  }

  /** Declare arguments of the delay queue of {@code backoff}: expired messages go back to their lane. */
  Map<String, Object> delayArguments(RabbitQueueType type, Duration backoff) {
    Map<String, Object> expiry =
        Map.of("x-message-ttl", backoff.toMillis(), "x-dead-letter-exchange", requeueExchange());
    return switch (type) {
      case CLASSIC -> expiry;
      case QUORUM -> Map.copyOf(quorum(expiry));
    };
  }

  /** {@code deadLettering} with what makes a quorum queue dead-letter at least once. */
  static HashMap<String, Object> quorum(Map<String, Object> deadLettering) {
    var arguments = new HashMap<String, Object>(deadLettering);
    arguments.put("x-queue-type", RabbitQueueType.QUORUM.argument());
    arguments.put("x-dead-letter-strategy", "at-least-once");
    arguments.put("x-overflow", "reject-publish");
    return arguments;
  }

  /** The distinct non-zero waits a message of {@code spec} can have between its deliveries. */
  static SortedSet<Duration> backoffs(QueueSpec spec) {
    var backoffs = new TreeSet<Duration>();
    for (int failed = 1; failed < spec.maxDeliveries(); failed++) {
      Duration backoff = spec.retry().backoffAfter(failed);
      if (backoff.toMillis() > 0) backoffs.add(Duration.ofMillis(backoff.toMillis()));
    }
    return backoffs;
  }

  /** Every queue of this layout with the delay queues of {@code spec}: for tests that clean up. */
  static List<String> queueNames(QueueSpec spec) {
    var layout = of(spec);
    var names = new ArrayList<String>();
    for (int lane = 0; lane < layout.lanes(); lane++) names.add(layout.lane(lane));
    names.add(layout.deadLetters());
    backoffs(spec).forEach(backoff -> names.add(layout.delayQueue(backoff)));
    return names;
  }
}
