package dev.tidings.events;

import dev.tidings.Json;
import dev.tidings.events.EventListener.ReceivedEvent;
import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.WorkQueue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Runs each listener on its own queue: a batch of messages, each a list of events, becomes one call of
 * the listener. An event that cannot be read (a version that no longer knows its type, data that no
 * longer fits) is set aside as a dead letter with its reason; the events beside it are applied.
 */
public final class EventConsumers implements ConsumerGroup {
  /** Events a listener applied (repeats its inbox dropped included), by listener. */
  public static final String APPLIED = "tidings_events_applied_total";

  private static final int MESSAGES_PER_BATCH = 8;
  private final EventRoutes routes;
  private final WorkQueue queue;
  private final MeterRegistry metrics;

  public EventConsumers(EventRoutes routes, WorkQueue queue, MeterRegistry metrics) {
    this.routes = routes;
    this.queue = queue;
    this.metrics = metrics;
  }

  @Override
  public void register(Consumers consumers) {
    for (EventListener listener : routes.listeners())
      consumers.consumeBatches(
          EventRoutes.queue(listener), 1, MESSAGES_PER_BATCH, handler(listener));
  }

  BatchHandler handler(EventListener listener) {
    Counter applied = Counter.builder(APPLIED)
        .description("Events handed to a listener (at least once: its inbox drops repeats)")
        .tag("listener", listener.name())
        .register(metrics);
    String queueName = EventRoutes.queue(listener).name();
    return batch -> {
      List<ReceivedEvent> events = new ArrayList<>();
      Map<String, Disposition> rejected = new HashMap<>();
      for (Delivery delivery : batch) {
        Read read = read(delivery.body());
        if (read.events().isEmpty() && !read.problems().isEmpty()) {
          rejected.put(
              delivery.messageId(), Disposition.reject(String.join("; ", read.problems())));
          continue;
        }
        events.addAll(read.events());
        if (!read.unread().isEmpty())
          queue.publish(queueName, Message.of(unreadBody(read.unread()), 0));
      }
      if (!events.isEmpty()) {
        listener.apply(events);
        applied.increment(events.size());
      }
      return BatchResult.except(rejected);
    };
  }

  /** What a message held: the events read, those that could not be, and why. */
  private record Read(List<ReceivedEvent> events, List<JsonNode> unread, List<String> problems) {}

  private static byte[] unreadBody(List<JsonNode> unread) {
    var array = Json.MAPPER.createArrayNode();
    unread.forEach(array::add);
    return array.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static Read read(byte[] body) {
    JsonNode array;
    try {
      array = Json.MAPPER.readTree(body);
    } catch (JacksonException e) {
      return new Read(List.of(), List.of(), List.of("not JSON: " + e.getOriginalMessage()));
    }
    if (!array.isArray())
      return new Read(List.of(), List.of(), List.of("not a JSON array of events"));
    List<ReceivedEvent> events = new ArrayList<>();
    List<JsonNode> unread = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (JsonNode node : array) {
      CloudEvent envelope;
      try {
        envelope = CloudEvent.of(node);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
        unread.add(node);
        continue;
      }
      try {
        events.add(new ReceivedEvent(envelope, envelope.event()));
      } catch (IllegalArgumentException e) {
        problems.add("event " + envelope.id() + ": " + e.getMessage());
        unread.add(node);
      }
    }
    // a message of nothing but unreadable events is the one set aside; alone, it is not published
    // again
    if (events.isEmpty()) return new Read(List.of(), List.of(), problems);
    return new Read(events, unread, problems);
  }
}
