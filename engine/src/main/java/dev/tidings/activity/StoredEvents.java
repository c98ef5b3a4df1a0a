package dev.tidings.activity;

import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * What else changes with the events the intake stores, in the same transaction: the aggregates count
 * each stored event exactly once, and a replayed event (its id seen before) is never passed on.
 */
@FunctionalInterface
public interface StoredEvents {
  StoredEvents NONE = (handle, events) -> {};

  void stored(Handle handle, List<StoredEvent> events);
}
