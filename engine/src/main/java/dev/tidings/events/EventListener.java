package dev.tidings.events;

import java.util.List;
import java.util.Set;

/**
 * A capability's reaction to others' events. It lives in the listening capability; {@code app} only
 * registers it. The relay hands it the events of its {@link #types()} through a work queue of its own
 * ({@code tidings.events.<name>}), at least once and in batches: a listener whose effect must happen
 * once filters with {@link EventInbox} in its own transaction. Throwing retries the batch later (and
 * after the queue's attempts, sets it aside as a dead letter an operator can replay).
 */
public interface EventListener {
  /** A short lowercase label: its queue's name and its metrics' {@code listener} label. */
  String name();

  /** The events it hears. */
  Set<CloudEventType> types();

  /** Applies a batch of events, each of one of {@link #types()}, in log order. */
  void apply(List<ReceivedEvent> events) throws Exception;

  /** An event as a listener receives it: the envelope and the record it carries. */
  record ReceivedEvent(CloudEvent envelope, DomainEvent event) {
    public String id() {
      return envelope.id();
    }
  }
}
