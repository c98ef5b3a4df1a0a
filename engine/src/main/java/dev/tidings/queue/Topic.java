package dev.tidings.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A queue that carries one kind of record: its spec and the codec of its records. A capability
 * declares its topics as constants, publishes records and consumes records, never raw bytes; a body
 * the codec cannot read is rejected (dead-lettered with the reason) instead of failing forever.
 */
public record Topic<T>(QueueSpec spec, Codec<T> codec) {
  public Topic {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(codec, "codec");
  }

  public String name() {
    return spec.name();
  }

  public Message message(T value, int priority) {
    return new Message(codec.encode(value), priority, Map.of());
  }

  public void publish(WorkQueue queue, T value, int priority) {
    queue.publish(name(), message(value, priority));
  }

  public void publishAll(WorkQueue queue, List<T> values, int priority) {
    queue.publishAll(
        name(), values.stream().map(value -> message(value, priority)).toList());
  }

  /** Handles one record. */
  @FunctionalInterface
  public interface Handler<T> {
    Disposition handle(Received<T> received) throws Exception;
  }

  /** Handles a batch of records; the result names deliveries by {@code received.delivery().messageId()}. */
  @FunctionalInterface
  public interface BatchOf<T> {
    BatchResult handle(List<Received<T>> batch) throws Exception;
  }

  /** A decoded record with the delivery that carried it (its id, attempt count, headers). */
  public record Received<T>(T value, Delivery delivery) {}

  public MessageHandler handler(Handler<T> handler) {
    return delivery -> {
      T value;
      try {
        value = codec.decode(delivery.body());
      } catch (UndecodableMessageException e) {
        return Disposition.reject(e.reason());
      }
      return handler.handle(new Received<>(value, delivery));
    };
  }

  public BatchHandler batchHandler(BatchOf<T> handler) {
    return deliveries -> {
      List<Received<T>> decoded = new ArrayList<>(deliveries.size());
      Map<String, Disposition> rejected = new HashMap<>();
      for (Delivery delivery : deliveries) {
        try {
          decoded.add(new Received<>(codec.decode(delivery.body()), delivery));
        } catch (UndecodableMessageException e) {
          rejected.put(delivery.messageId(), Disposition.reject(e.reason()));
        }
      }
      if (decoded.isEmpty()) return BatchResult.except(rejected);
      BatchResult result = handler.handle(decoded);
      if (rejected.isEmpty()) return result;
      rejected.putAll(result.exceptions());
      return BatchResult.except(rejected);
    };
  }
}
