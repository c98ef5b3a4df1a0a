package dev.tidings.events;

import dev.tidings.queue.QueueSpec;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which listener hears which event type: every node knows all of them (the relay may run on any node,
 * whatever role it has), built from what the capabilities register.
 */
public final class EventRoutes {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,47}");
  private final List<EventListener> listeners;
  private final Map<CloudEventType, List<EventListener>> byType =
      new EnumMap<>(CloudEventType.class);

  public EventRoutes(List<EventListener> listeners) {
    this.listeners = List.copyOf(listeners);
    Set<String> names = new HashSet<>();
    for (EventListener listener : this.listeners) {
      if (!NAME.matcher(listener.name()).matches())
        throw new IllegalArgumentException(
            "a listener's name is a short lowercase label, got " + listener.name());
      if (!names.add(listener.name()))
        throw new IllegalArgumentException("two listeners are named " + listener.name());
      for (CloudEventType type : listener.types())
        byType.computeIfAbsent(type, t -> new ArrayList<>()).add(listener);
    }
  }

  public List<EventListener> listeners() {
    return listeners;
  }

  /** The listeners of {@code type}, in registration order. */
  public List<EventListener> of(CloudEventType type) {
    return byType.getOrDefault(type, List.of());
  }

  /** The work queue that carries {@code listener}'s events. */
  public static QueueSpec queue(EventListener listener) {
    return QueueSpec.of("tidings.events." + listener.name());
  }
}
