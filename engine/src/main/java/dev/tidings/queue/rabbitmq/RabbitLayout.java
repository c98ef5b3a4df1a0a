package dev.tidings.queue.rabbitmq;

import dev.tidings.queue.QueueSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The RabbitMQ objects behind one Tidings queue {@code <name>}:
 *
 * <ul>
 *   <li>one durable classic queue per priority, {@code <name>.p0} to {@code <name>.p<maxPriority>}
 *       (lanes), so that a consumer sees the head of every priority and can serve the oldest
 *       message whatever its priority, which a single priority queue cannot offer;
 *   <li>{@code <name>.retry.<millis>}: one delay queue per distinct backoff of the retry policy, with
 *       that queue-wide TTL, dead-lettering into the headers exchange {@code <name>.requeue}, which
 *       routes each message back to its lane by its {@code x-tidings-lane} header (every message of a
 *       delay queue has the same TTL, so expiry at the head is exact);
 *   <li>{@code <name>.dead-letters}: a stream of the messages given up on, read from its end.
 * </ul>
 */
record RabbitLayout(String queue, int maxPriority) {
  RabbitLayout {
    if (maxPriority < 0 || maxPriority > QueueSpec.MAX_PRIORITY)
      throw new IllegalArgumentException("maxPriority out of range: " + maxPriority);
  }

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
