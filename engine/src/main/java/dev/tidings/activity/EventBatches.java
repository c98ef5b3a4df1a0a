package dev.tidings.activity;

import dev.tidings.events.EventOutbox;
import dev.tidings.events.activity.ActivityAccepted;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * The events of one request, written a batch (one statement) at a time in one transaction. The transaction
 * starts with the first full batch: a request that fits one batch is read and checked whole before it
 * takes a connection, and a larger one is written while it is still being read, so it needs no more memory
 * than a batch. Nothing is visible before {@link #commit()}; closing without it stores nothing.
 */
final class EventBatches implements AutoCloseable {
  private final Jdbi jdbi;
  private final Instant receivedAt;
  private final int batchEvents;
  private final StoredEvents listener;
  private final EventOutbox outbox;
  private final List<ActivityEvent> pending;
  private @Nullable Handle transaction;
  private IntakeResult written = IntakeResult.NOTHING;
  private boolean discarded;
  private boolean committed;

  EventBatches(
      Jdbi jdbi, Instant receivedAt, int batchEvents, StoredEvents listener, EventOutbox outbox) {
    this.jdbi = jdbi;
    this.listener = listener;
    this.outbox = outbox;
    this.receivedAt = receivedAt;
    this.batchEvents = batchEvents;
    this.pending = new ArrayList<>(Math.min(batchEvents, 1024));
  }

  void add(ActivityEvent event) {
    if (discarded) return;
    pending.add(event);
    if (pending.size() == batchEvents) {
      if (transaction == null) {
        transaction = jdbi.open();
        transaction.begin();
      }
      write(transaction);
    }
  }

  /**
   * The request will store nothing (it has a bad event): what was written is rolled back at once, so the
   * connection is not held while the rest is read for its problems, and later events are dropped.
   */
  void discard() {
    discarded = true;
    pending.clear();
    close();
  }

  IntakeResult commit() {
    if (discarded) throw new IllegalStateException("the events were discarded");
    if (transaction == null) {
      // A single statement is atomic by itself: no BEGIN and COMMIT round trips for the common
      // request, unless a listener writes with it.
      if (!pending.isEmpty()) {
        if (listener == StoredEvents.NONE) jdbi.useHandle(this::write);
        else jdbi.useTransaction(this::write);
      }
    } else {
      if (!pending.isEmpty()) write(transaction);
      transaction.commit();
    }
    committed = true;
    return written;
  }

  private void write(Handle handle) {
    int stored;
    if (listener == StoredEvents.NONE) {
      stored = EventTable.insert(handle, pending, receivedAt, outbox.on());
    } else {
      List<StoredEvent> added = EventTable.insertReturningStored(handle, pending, receivedAt);
      listener.stored(handle, added);
      outbox.append(handle, added.stream().map(EventBatches::accepted).toList());
      stored = added.size();
    }
    written = written.plus(stored, pending.size() - stored);
    pending.clear();
  }

  private static ActivityAccepted accepted(StoredEvent stored) {
    ActivityEvent event = stored.event();
    return new ActivityAccepted(
        event.eventId().orElse(null),
        event.userId(),
        event.type().wire(),
        event.itemId(),
        event.quantity(),
        event.timestamp());
  }

  @Override
  public void close() {
    Handle open = transaction;
    if (open == null) return;
    transaction = null;
    try {
      if (!committed) open.rollback();
    } catch (RuntimeException ignored) {
      // Closing the connection discards the transaction anyway.
    } finally {
      open.close();
    }
  }
}
