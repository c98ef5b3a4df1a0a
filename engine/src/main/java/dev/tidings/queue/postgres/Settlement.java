package dev.tidings.queue.postgres;

import dev.tidings.queue.Disposition;
import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What becomes of a set of claimed messages, as the parallel arrays that {@link MessageTable#settle}
 * sends in one statement: acknowledged, retried after the queue's backoff, or dead-lettered.
 */
final class Settlement {
  private static final Logger log = LoggerFactory.getLogger(Settlement.class);

  private final QueueSpec spec;
  private final QueueCounters counters;
  private final List<Claimed> messages = new ArrayList<>();
  private final List<QueueCounters.@Nullable DeadReason> deadReasons = new ArrayList<>();
  private final List<String> kinds = new ArrayList<>();
  private final List<Long> delays = new ArrayList<>();
  private final List<String> reasons = new ArrayList<>();
  private boolean onlyAcks = true;

  Settlement(QueueSpec spec, QueueCounters counters) {
    this.spec = spec;
    this.counters = counters;
  }

  /** Records what {@code disposition} means for {@code message} under the queue's limits. */
  void add(Claimed message, Disposition disposition) {
    switch (disposition) {
      case Disposition.Ack ack -> add(message, "ack", 0, "", null);
      case Disposition.Reject reject ->
        add(
            message,
            "dead",
            0,
            reject.reason(),
            // claimed past the limit: the deliveries before it were never settled,
            // their consumers died
            message.deliveries() > spec.maxDeliveries()
                ? QueueCounters.DeadReason.consumer_lost
                : QueueCounters.DeadReason.rejected);
      case Disposition.Retry retry
      when message.deliveries() >= spec.maxDeliveries() ->
        add(message, "dead", 0, retry.reason(), QueueCounters.DeadReason.exhausted);
      case Disposition.Retry retry ->
        add(message, "retry", spec.retry().backoffAfter(message.deliveries()).toMillis(), "", null);
    }
  }

  private void add(
      Claimed message,
      String kind,
      long delayMillis,
      String reason,
      QueueCounters.@Nullable DeadReason deadReason) {
    deadReasons.add(deadReason);
    messages.add(message);
    kinds.add(kind);
    delays.add(delayMillis);
    reasons.add(reason);
    onlyAcks &= kind.equals("ack");
  }

  /**
   * Settles every message in one statement. A message whose lease was taken over meanwhile (a pause
   * longer than the visibility timeout) keeps what its new holder decides; a failure leaves every
   * message to come back when its lease ends.
   */
  void apply(MessageTable table) {
    if (isEmpty()) return;
    Set<Long> ours;
    try {
      ours = table.settle(this);
    } catch (RuntimeException e) {
      log.warn(
          "cannot settle {} message(s) of queue '{}'; they are redelivered after their lease ends: {}",
          size(),
          spec.name(),
          e.toString());
      return;
    }
    for (int i = 0; i < messages.size(); i++) {
      if (!ours.contains(messages.get(i).id())) continue;
      QueueCounters.DeadReason dead = deadReasons.get(i);
      if (dead != null) counters.deadLettered(spec.name(), dead);
      else if (kinds.get(i).equals("retry")) counters.retried(spec.name());
    }
    if (ours.size() == size()) return;
    for (int i = 0; i < messages.size(); i++) {
      if (!ours.contains(messages.get(i).id())) {
        log.warn(
            "message {} of queue '{}' was leased to another consumer before its handler finished "
                + "(visibility timeout {}); its result ({}) is dropped",
            messages.get(i).id(),
            spec.name(),
            spec.visibilityTimeout(),
            kinds.get(i));
      }
    }
  }

  boolean isEmpty() {
    return messages.isEmpty();
  }

  int size() {
    return messages.size();
  }

  boolean onlyAcks() {
    return onlyAcks;
  }

  List<Long> ids() {
    return messages.stream().map(Claimed::id).toList();
  }

  List<String> tokens() {
    return messages.stream().map(message -> message.token().toString()).toList();
  }

  List<String> kinds() {
    return kinds;
  }

  List<Long> delaysMillis() {
    return delays;
  }

  List<String> reasons() {
    return reasons;
  }
}
