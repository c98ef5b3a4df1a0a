package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
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
 */
final class ConfirmChannel {
  private final Channel channel;
  private final Semaphore window;
  private final ReentrantLock publishLock = new ReentrantLock();
  private final ConcurrentNavigableMap<Long, CompletableFuture<Void>> unconfirmed =
      new ConcurrentSkipListMap<>();
  private final ReentrantLock pauseLock = new ReentrantLock();
  private final List<Runnable> heldConfirms = new ArrayList<>();
  private boolean paused;

  ConfirmChannel(Connection connection, int maxUnconfirmed) throws IOException {
    this.channel = connection.createChannel();
    this.window = new Semaphore(maxUnconfirmed);
    channel.confirmSelect();
    channel.addConfirmListener(
        (tag, multiple) -> confirm(tag, multiple, null),
        (tag, multiple) -> confirm(tag, multiple, "the broker refused the message (nack)"));
    // Confirms of publishes made before a connection loss never come; fail them now instead of at
    // the timeout.
    channel.addShutdownListener(cause -> failAll(cause));
  }

  /** Sends one message; the future completes when the broker confirmed it. Blocks while the window is full. */
  CompletableFuture<Void> publish(
      String queue, AMQP.BasicProperties properties, byte[] body, Duration timeout) {
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
    publishLock.lock();
    try {
      long sequence = channel.getNextPublishSeqNo();
      unconfirmed.put(sequence, confirmed);
      try {
        channel.basicPublish("", queue, false, properties, body);
      } catch (IOException | RuntimeException e) {
        if (unconfirmed.remove(sequence) != null) window.release();
        throw new QueueUnavailableException(
            "cannot publish to '" + queue + "': " + e.getMessage(), e);
      }
    } finally {
      publishLock.unlock();
    }
    return confirmed;
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
        multiple ? unconfirmed.headMap(tag, true) : subMapOf(tag);
    for (var entry : new ArrayList<>(settled.entrySet())) {
      if (unconfirmed.remove(entry.getKey()) == null) continue;
      window.release();
      if (refusal == null) entry.getValue().complete(null);
      else entry.getValue().completeExceptionally(new QueueUnavailableException(refusal));
    }
  }

  private Map<Long, CompletableFuture<Void>> subMapOf(long tag) {
    return unconfirmed.subMap(tag, true, tag, true);
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
