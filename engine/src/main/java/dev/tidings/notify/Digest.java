package dev.tidings.notify;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * What a subscriber has not been told yet: the applicable content of their last days' buckets after each
 * day's flush marker, each piece once (its first day), newest day first. {@code positions} says how far
 * each day's bucket was read; flushing this digest moves the markers there and no further, so what
 * arrived while it was being sent goes into the next one.
 */
public record Digest(
    String subscriberId, List<Notification> items, Map<LocalDate, Integer> positions) {
  public Digest {
    items = List.copyOf(items);
    positions = Map.copyOf(positions);
  }

  /** One piece of content to tell, why, and the day it arrived. */
  public record Notification(NotificationKind kind, Content content, LocalDate day) {}

  public boolean isEmpty() {
    return items.isEmpty();
  }
}
