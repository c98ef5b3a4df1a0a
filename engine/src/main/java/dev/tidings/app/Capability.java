package dev.tidings.app;

import dev.tidings.events.EventListener;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.retention.Expiring;
import dev.tidings.retention.Retention;
import dev.tidings.storage.StoredRowRepair;
import dev.tidings.web.RouteGroup;
import java.util.List;

/**
 * One capability as a node runs it: the HTTP routes it serves and the queue consumers it runs. Each
 * capability's wiring builds its services from the {@link Infrastructure} it needs, when first asked,
 * so a command that uses one capability opens only that capability's servers.
 */
public interface Capability extends AutoCloseable {
  default List<RouteGroup> routes() {
    return List.of();
  }

  default List<ConsumerGroup> consumers() {
    return List.of();
  }

  /** How this capability reacts to others' events: registered with the relay, consumed on workers. */
  default List<EventListener> eventListeners() {
    return List.of();
  }

  /**
   * What the capability runs in the background on every started node, whatever its role (counting,
   * retention): each started when the node starts, closed when it stops. Safe to run on many nodes.
   */
  default List<Background> background() {
    return List.of();
  }

  /**
   * The tables of this capability that grow with traffic, each with its lifetime: worker nodes remove
   * what outlived it in the background ({@link Retention}).
   */
  default List<Expiring> expiring() {
    return List.of();
  }

  /**
   * What repairs the rows of this capability's tables that an earlier version stored and today's
   * rules refuse; {@code tidings migrate} runs them ({@link StoredRowRepairs}).
   */
  default List<StoredRowRepair> repairs() {
    return List.of();
  }

  /** A background task: starting it returns what stops it. */
  @FunctionalInterface
  interface Background {
    AutoCloseable start();
  }

  /** Releases what the capability's services hold (buffers they flush, threads they run). */
  @Override
  default void close() {}
}
