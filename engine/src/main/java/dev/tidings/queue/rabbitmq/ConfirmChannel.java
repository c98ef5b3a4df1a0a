package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Return;
import com.rabbitmq.client.ShutdownSignalException;
import dev.tidings.queue.QueueUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One publishing channel in confirm mode. Channels are not thread-safe, so a lock serialises the
 * publishes themselves; waiting for confirms happens outside it, so many threads share one channel's
 * confirm round trips. A semaphore caps the publishes awaiting a confirm: that is the backpressure.
 *
 * <p>Every publish is {@code mandatory}: a message the broker cannot route (its queue deleted behind
 * Tidings' back) comes back as a {@code basic.return} before its confirm, and fails its publish
 * instead of being confirmed into nowhere. The publish's sequence number travels as the message's
 * correlation id so that the return finds its publish.
 *
 * <p>Automatic recovery brings the channel back after a lost connection, but not after the broker
 * closed the channel alone (a channel error): then the next publish opens a new one.
 */
final class ConfirmChannel {
  private final Connection connection;
  private final Semaphore window;
  private final ReentrantLock publishLock = new ReentrantLock();
  private final ConcurrentNavigableMap<Long, CompletableFuture<Void>> unconfirmed =
      new ConcurrentSkipListMap<>();
  private final ReentrantLock pauseLock = new ReentrantLock();
  private final List<Runnable> heldConfirms = new ArrayList<>();
  private boolean paused;
  private volatile Channel channel;

  ConfirmChannel(Connection connection, int maxUnconfirmed) throws IOException {
    this.connection = connection;
    this.window = new Semaphore(maxUnconfirmed);
    this.channel = open();
  }

  private Channel open() throws IOException {
    Channel opened = connection.createChannel();
    opened.confirmSelect();
    opened.addConfirmListener(
        (tag, multiple) -> confirm(tag, multiple, null),
        (tag, multiple) -> confirm(tag, multiple, "the broker refused the message (nack)"));
    opened.addReturnListener(this::returned);
    // Confirms of publishes made before a connection loss never come;
    // fail them now instead of at the timeout.
    opened.addShutdownListener(this::failAll);
    return opened;
  }

  /**
   * Sends one message to {@code exchange} with {@code routingKey} (the default exchange and a queue's
   * name: straight into that queue); the future completes when the broker confirmed it. Blocks while
   * the window is full.
   */
  CompletableFuture<Void> publish(
      String exchange,
      String routingKey,
      AMQP.BasicProperties properties,
      byte[] body,
      Duration timeout) {
    String queue = exchange.isEmpty() ? routingKey : exchange; // what errors name
    try {
      if (!window.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new QueueUnavailableException("no confirm slot free on a RabbitMQ channel within "
            + timeout + " (" + unconfirmed.size() + " publishes await confirms)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueUnavailableException("interrupted waiting to publish to '" + queue + "'", e);
    }
    var confirmed = new CompletableFuture<Void>();
    long sequence = -1;
    publishLock.lock();
    try {
      Channel current = openChannel(queue);
      sequence = current.getNextPublishSeqNo();
      unconfirmed.put(sequence, confirmed);
      current.basicPublish(
          exchange,
          routingKey,
          true,
          properties.builder().correlationId(Long.toString(sequence)).build(),
          body);
    } catch (IOException | RuntimeException e) {
      // Released once: here, or by whoever already removed the entry (a shutdown failing them all).
      if (sequence < 0 || unconfirmed.remove(sequence) != null) window.release();
      throw e instanceof QueueUnavailableException unavailable
          ? unavailable
          : new QueueUnavailableException(
              "cannot publish to '" + queue + "': " + e.getMessage(), e);
    } finally {
      publishLock.unlock();
    }
    return confirmed;
  }

  /** The channel, or a new one when the broker closed the old one alone; the connection's own recovery is left to the client. */
  private Channel openChannel(String queue) {
    Channel current = channel;
    if (current.isOpen()) return current;
    ShutdownSignalException reason = current.getCloseReason();
    if (reason != null && !reason.isHardError() && connection.isOpen()) {
      try {
        channel = open();
        return channel;
      } catch (IOException | RuntimeException e) {
        throw new QueueUnavailableException(
            "cannot reopen a publishing channel for '" + queue + "': " + e.getMessage(), e);
      }
    }
    return current; // a publish on it fails at once with the reason
  }

  private void returned(Return returned) {
    String correlation = returned.getProperties().getCorrelationId();
    if (correlation == null) return;
    long sequence;
    try {
      sequence = Long.parseLong(correlation);
    } catch (NumberFormatException e) {
      return;
    }
    CompletableFuture<Void> future = unconfirmed.remove(sequence);
    if (future == null) return;
    window.release();
    String where = returned.getExchange().isEmpty()
        ? "queue '" + returned.getRoutingKey() + "'"
        : "exchange '" + returned.getExchange() + "' with key '" + returned.getRoutingKey() + "'";
    future.completeExceptionally(new QueueUnavailableException("RabbitMQ could not route a message"
        + " to " + where + " (" + returned.getReplyCode() + " " + returned.getReplyText()
        + "): it was deleted or never declared; declare the queue again"));
  }

  private void confirm(long tag, boolean multiple, @Nullable String refusal) {
    pauseLock.lock();
    try {
      if (paused) {
        heldConfirms.add(() -> confirm(tag, multiple, refusal));
        return;
      }
    } finally {
      pauseLock.unlock();
    }
    Map<Long, CompletableFuture<Void>> settled =
        multiple ? unconfirmed.headMap(tag, true) : unconfirmed.subMap(tag, true, tag, true);
    for (var entry : new ArrayList<>(settled.entrySet())) {
      if (unconfirmed.remove(entry.getKey()) == null) continue;
      window.release();
      if (refusal == null) entry.getValue().complete(null);
      else entry.getValue().completeExceptionally(new QueueUnavailableException(refusal));
    }
  }

  private void failAll(ShutdownSignalException cause) {
    for (Long sequence : new ArrayList<>(unconfirmed.keySet())) {
      CompletableFuture<Void> future = unconfirmed.remove(sequence);
      if (future == null) continue;
      window.release();
      future.completeExceptionally(new QueueUnavailableException(
          "RabbitMQ channel closed before confirming: " + cause.getMessage(), cause));
    }
  }

  /** Test hook: hold the broker's confirms back, as a broker slowed by disk or memory alarms would. */
  void pauseConfirms() {
    pauseLock.lock();
    try {
      paused = true;
    } finally {
      pauseLock.unlock();
    }
  }

  void resumeConfirms() {
    List<Runnable> held;
    pauseLock.lock();
    try {
      paused = false;
      held = List.copyOf(heldConfirms);
      heldConfirms.clear();
    } finally {
      pauseLock.unlock();
    }
    held.forEach(Runnable::run);
  }
}
