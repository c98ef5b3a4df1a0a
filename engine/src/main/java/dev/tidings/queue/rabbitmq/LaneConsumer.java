package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer of a queue: a channel consuming every lane with a per-lane prefetch, a
 * {@link LaneBuffer} choosing what to hand out, and a dispatcher thread handing it out while fewer
 * than {@code capacity} messages are being handled (in batch mode: one batch at a time).
 *
 * <p>The channel is kept alive: after a lost connection the client's automatic recovery reopens it and
 * its consumers; after the broker closed the channel alone (a channel error, {@code consumer_timeout})
 * or cancelled a consumer (its lane deleted), this consumer opens a new channel and consumes again,
 * retrying until it succeeds or is closed. Whatever the old channel held, the broker requeues; acks
 * of it are dropped, since a delivery tag only means something on the channel that received it.
 */
final class LaneConsumer {
  private static final Logger log = LoggerFactory.getLogger(LaneConsumer.class);
  private static final Duration FIRST_REOPEN_DELAY = Duration.ofMillis(200);
  private static final Duration LAST_REOPEN_DELAY = Duration.ofSeconds(5);

  /** Where handed-out messages go: every one of them comes back through {@link #settle}. */
  interface Sink {
    void handOut(LaneConsumer from, List<Inbound> taken);
  }

  private final Connection connection;
  private final RabbitLayout layout;
  private final int lanePrefetch;
  private final int capacity;
  private final boolean batches;
  private final Sink sink;
  private final Runnable beforeReopen;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final LaneBuffer<Inbound> buffer;
  private final TreeSet<Long> unsettled = new TreeSet<>();
  private final List<String> consumerTags = new ArrayList<>();
  private @Nullable Channel channel;
  private long incarnation;
  private int inFlight;
  private boolean stopped;
  private boolean closed;
  private @Nullable Thread dispatcher;

  LaneConsumer(
      Connection connection,
      RabbitLayout layout,
      int lanePrefetch,
      int capacity,
      boolean batches,
      int oldestEvery,
      Duration refillWait,
      Sink sink,
      Runnable beforeReopen) {
    this.connection = connection;
    this.layout = layout;
    this.lanePrefetch = lanePrefetch;
    this.capacity = capacity;
    this.batches = batches;
    this.sink = sink;
    this.beforeReopen = beforeReopen;
    this.buffer = new LaneBuffer<>(layout.lanes(), lanePrefetch, oldestEvery, refillWait.toNanos());
  }

  void start() throws IOException {
    open();
    dispatcher =
        Thread.ofVirtual().name("tidings-dispatch-" + layout.queue()).start(this::dispatch);
  }

  private void open() throws IOException {
    Channel opened = connection.createChannel();
    try {
      opened.basicQos(lanePrefetch, false);
      long[] ready = new long[layout.lanes()];
      for (int lane = 0; lane < layout.lanes(); lane++)
        ready[lane] = opened.queueDeclarePassive(layout.lane(lane)).getMessageCount();
      long current;
      lock.lock();
      try {
        current = ++incarnation;
        buffer.reset();
        unsettled.clear();
        consumerTags.clear();
        long now = System.nanoTime();
        for (int lane = 0; lane < ready.length; lane++) buffer.expect(lane, ready[lane], now);
        channel = opened;
      } finally {
        lock.unlock();
      }
      opened.addShutdownListener(cause -> lost(opened, cause));
      if (opened instanceof Recoverable recoverable) recoverable.addRecoveryListener(recovery());
      // Highest lane first: its messages are on their way before the lower lanes even start.
      for (int lane = layout.lanes() - 1; lane >= 0; lane--) {
        String tag = opened.basicConsume(
            layout.lane(lane), false, new LaneDeliveries(opened, lane, current));
        lock.lock();
        try {
          consumerTags.add(tag);
        } finally {
          lock.unlock();
        }
      }
    } catch (IOException | RuntimeException e) {
      abortQuietly(opened);
      throw e;
    }
  }

  private final class LaneDeliveries extends DefaultConsumer {
    private final int lane;
    private final long openedAs;

    LaneDeliveries(Channel channel, int lane, long openedAs) {
      super(channel);
      this.lane = lane;
      this.openedAs = openedAs;
    }

    @Override
    public void handleDelivery(
        String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
      lock.lock();
      try {
        if (getChannel() != channel) return; // a channel given up on; the broker requeues
        // Automatic recovery keeps the channel object but a new incarnation:
        // deliveries belong to the current one.
        var inbound = new Inbound(
            lane, incarnation, envelope.getDeliveryTag(), envelope.isRedeliver(), properties, body);
        buffer.delivered(lane, inbound, TidingsHeaders.publishedAt(properties));
        unsettled.add(envelope.getDeliveryTag());
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void handleCancel(String consumerTag) {
      log.warn(
          "RabbitMQ cancelled the consumer of '{}' (deleted?); consuming '{}' again",
          layout.lane(lane),
          layout.queue());
      Thread.ofVirtual().start(() -> reopen(getChannel(), openedAs));
    }
  }

  private RecoveryListener recovery() {
    return new RecoveryListener() {
      @Override
      public void handleRecovery(Recoverable recoverable) {
        lock.lock();
        try {
          incarnation++;
          buffer.reset();
          unsettled.clear();
          changed.signalAll();
        } finally {
          lock.unlock();
        }
      }

      @Override
      public void handleRecoveryStarted(Recoverable recoverable) {}
    };
  }

  private void lost(Channel lostChannel, ShutdownSignalException cause) {
    long lostAs;
    lock.lock();
    try {
      if (lostChannel != channel) return;
      lostAs = ++incarnation;
      buffer.reset();
      unsettled.clear();
      changed.signalAll();
      if (closed || cause.isInitiatedByApplication()) return;
    } finally {
      lock.unlock();
    }
    // A lost connection is the client's to recover, with this channel and its consumers.
    if (cause.isHardError()) return;
    log.warn(
        "RabbitMQ closed a consumer channel of '{}': {}; opening a new one",
        layout.queue(),
        cause.getMessage());
    Thread.ofVirtual().start(() -> reopen(lostChannel, lostAs));
  }

  /** Replaces {@code old} with a new channel, retrying with growing pauses until it works or this consumer closes. */
  private void reopen(Channel old, long lostAs) {
    lock.lock();
    try {
      if (closed || old != channel) return;
      channel = null; // deliveries still arriving on the old one are ignored
    } finally {
      lock.unlock();
    }
    abortQuietly(old);
    Duration delay = FIRST_REOPEN_DELAY;
    while (true) {
      try {
        Thread.sleep(delay);
      } catch (InterruptedException e) {
        return;
      }
      lock.lock();
      try {
        if (closed) return;
      } finally {
        lock.unlock();
      }
      try {
        beforeReopen.run();
        open();
        log.info(
            "consuming '{}' again after losing channel incarnation {}", layout.queue(), lostAs);
        return;
      } catch (IOException | RuntimeException e) {
        log.warn("cannot consume '{}' again yet: {}", layout.queue(), e.toString());
        delay = delay.multipliedBy(2).compareTo(LAST_REOPEN_DELAY) > 0
            ? LAST_REOPEN_DELAY
            : delay.multipliedBy(2);
      }
    }
  }

  private void dispatch() {
    while (true) {
      List<Inbound> taken;
      lock.lock();
      try {
        while (true) {
          if (stopped) return;
          long now = System.nanoTime();
          int room = batches ? (inFlight == 0 ? capacity : 0) : capacity - inFlight;
          if (room > 0) {
            taken = buffer.take(room, now);
            if (!taken.isEmpty()) {
              inFlight += taken.size();
              break;
            }
          }
          OptionalLong deadline = room > 0 ? buffer.nextDeadline(now) : OptionalLong.empty();
          if (deadline.isPresent()) changed.awaitNanos(Math.max(1, deadline.getAsLong() - now));
          else changed.await();
        }
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.unlock();
      }
      sink.handOut(this, taken);
    }
  }

  /**
   * {@code acked} are done, {@code requeued} go back to their lane (with {@code redelivered} set); both
   * come from what this consumer handed out, which is then that much less busy.
   */
  void settle(List<Inbound> acked, List<Inbound> requeued) {
    lock.lock();
    try {
      long now = System.nanoTime();
      Channel current = channel;
      var ackTags = new TreeSet<Long>();
      for (Inbound inbound : acked) {
        if (inbound.incarnation() != incarnation) continue;
        buffer.settled(inbound.lane(), now);
        ackTags.add(inbound.deliveryTag());
      }
      for (Inbound inbound : requeued) {
        if (inbound.incarnation() != incarnation) continue;
        buffer.settled(inbound.lane(), now);
      }
      if (current != null) {
        try {
          ack(current, ackTags);
          for (Inbound inbound : requeued) {
            if (inbound.incarnation() != incarnation) continue;
            current.basicNack(inbound.deliveryTag(), false, true);
            unsettled.remove(inbound.deliveryTag());
          }
        } catch (IOException | RuntimeException e) {
          // The channel is gone; the broker requeues what it had not acked.
          log.debug("cannot settle on a channel of '{}': {}", layout.queue(), e.toString());
        }
      }
      inFlight -= acked.size() + requeued.size();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Acks {@code tags} with as few frames as it can: one {@code multiple} ack up to the longest run
   * of the oldest unsettled deliveries that are all in {@code tags} (never past a delivery still in
   * the buffer or being handled, which a multiple ack would take from the queue unhandled), then one
   * ack each for the rest.
   */
  private void ack(Channel current, TreeSet<Long> tags) throws IOException {
    if (tags.isEmpty()) return;
    long upTo = -1;
    for (long tag : unsettled) {
      if (!tags.contains(tag)) break;
      upTo = tag;
    }
    if (upTo >= 0) {
      current.basicAck(upTo, true);
      unsettled.headSet(upTo, true).clear();
    }
    for (long tag : upTo >= 0 ? tags.tailSet(upTo, false) : tags) {
      current.basicAck(tag, false);
      unsettled.remove(tag);
    }
  }

  /** Stops handing out and consuming; messages already received stay for {@link #leftovers()}. */
  void stop() {
    Channel current;
    List<String> tags;
    lock.lock();
    try {
      stopped = true;
      changed.signalAll();
      current = channel;
      tags = List.copyOf(consumerTags);
    } finally {
      lock.unlock();
    }
    if (current == null) return;
    for (String tag : tags) {
      try {
        if (current.isOpen()) current.basicCancel(tag);
      } catch (IOException | RuntimeException e) {
        log.debug("cancelling a consumer of '{}': {}", layout.queue(), e.toString());
      }
    }
  }

  /** Received and never handed out, once stopped: the caller puts them back and settles them. */
  List<Inbound> leftovers() {
    lock.lock();
    try {
      List<Inbound> left = buffer.drain();
      inFlight += left.size();
      return left;
    } finally {
      lock.unlock();
    }
  }

  void close() {
    Channel current;
    lock.lock();
    try {
      closed = true;
      stopped = true;
      changed.signalAll();
      current = channel;
      channel = null;
    } finally {
      lock.unlock();
    }
    Thread running = dispatcher;
    if (running != null) running.interrupt();
    if (current == null) return;
    try {
      if (current.isOpen()) current.close();
    } catch (IOException | TimeoutException | RuntimeException e) {
      abortQuietly(current);
    }
  }

  /** Stops at once without settling or closing anything, as a killed process would. */
  void halt() {
    lock.lock();
    try {
      closed = true;
      stopped = true;
      channel = null;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    Thread running = dispatcher;
    if (running != null) running.interrupt();
  }

  /** Test hook: makes the broker close this consumer's channel, as it does on a channel error. */
  void provokeChannelError() throws IOException {
    Channel current;
    lock.lock();
    try {
      current = channel;
    } finally {
      lock.unlock();
    }
    if (current != null) current.basicAck(Long.MAX_VALUE / 2, false); // unknown delivery tag
  }

  /** Test hook: whether a channel is consuming. */
  boolean consuming() {
    lock.lock();
    try {
      return channel != null && channel.isOpen() && !stopped;
    } finally {
      lock.unlock();
    }
  }

  private static void abortQuietly(@Nullable Channel channel) {
    if (channel == null) return;
    try {
      channel.abort();
    } catch (IOException | RuntimeException ignored) {
      // already closed
    }
  }
}
