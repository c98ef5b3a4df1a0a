package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.Subscription;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One channel per consumer, each with {@code basicQos(prefetch)} and manual acks; deliveries run on
 * virtual threads. Whatever a consumer has not acked when its channel or connection dies, the broker
 * requeues with the {@code redelivered} flag.
 */
final class RabbitSubscription implements Subscription {
  private static final Logger log = LoggerFactory.getLogger(RabbitSubscription.class);

  /** What a settled delivery turns into: ack, or republish/dead-letter first and then ack. */
  interface Settler {
    void settle(Delivery delivery, AMQP.BasicProperties properties, Disposition disposition);
  }

  private final String queue;
  private final MessageHandler handler;
  private final Settler settler;
  private final Runnable onClose;
  private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
  private final List<ConsumerChannel> consumers = new ArrayList<>();
  private volatile boolean abandoned;

  RabbitSubscription(
      Connection connection,
      String queue,
      int consumers,
      int prefetch,
      MessageHandler handler,
      Settler settler,
      Runnable onClose)
      throws IOException {
    this.queue = queue;
    this.handler = handler;
    this.settler = settler;
    this.onClose = onClose;
    try {
      for (int i = 0; i < consumers; i++)
        this.consumers.add(new ConsumerChannel(connection.createChannel(), prefetch));
    } catch (IOException | RuntimeException e) {
      closeChannels();
      throw e;
    }
  }

  private final class ConsumerChannel extends DefaultConsumer {
    private final ReentrantLock lock = new ReentrantLock(); // acks come from many handler threads
    private final String tag;

    ConsumerChannel(Channel channel, int prefetch) throws IOException {
      super(channel);
      channel.basicQos(prefetch, false);
      this.tag = channel.basicConsume(queue, false, this);
    }

    @Override
    public void handleDelivery(
        String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
      Delivery delivery = RabbitWorkQueue.delivery(envelope, properties, body);
      try {
        handlers.execute(() -> {
          Disposition disposition;
          try {
            disposition = handler.handle(delivery);
          } catch (Exception e) {
            disposition = Disposition.retry("handler failed: " + e);
          }
          if (abandoned) return;
          try {
            settler.settle(delivery, properties, disposition);
            ack(envelope.getDeliveryTag());
          } catch (RuntimeException e) {
            log.warn(
                "cannot settle message {} of queue '{}'; returning it to the queue: {}",
                delivery.messageId(),
                queue,
                e.toString());
            requeue(envelope.getDeliveryTag());
          }
        });
      } catch (RejectedExecutionException closing) {
        // Arrived while closing: left unacked, the broker requeues it when the channel closes.
      }
    }

    private void ack(long deliveryTag) {
      withChannel(channel -> channel.basicAck(deliveryTag, false));
    }

    private void requeue(long deliveryTag) {
      withChannel(channel -> channel.basicNack(deliveryTag, false, true));
    }

    private interface ChannelCall {
      void run(Channel channel) throws IOException;
    }

    private void withChannel(ChannelCall call) {
      lock.lock();
      try {
        call.run(getChannel());
      } catch (IOException | RuntimeException e) {
        // The channel is gone; the broker requeues what it had not acked.
        log.warn("cannot settle on a channel of queue '{}': {}", queue, e.toString());
      } finally {
        lock.unlock();
      }
    }

    void cancel() {
      withChannel(channel -> {
        if (channel.isOpen()) channel.basicCancel(tag);
      });
    }

    void closeChannel() {
      lock.lock();
      try {
        if (getChannel().isOpen()) getChannel().close();
      } catch (IOException | TimeoutException | RuntimeException e) {
        log.debug("closing a consumer channel of '{}': {}", queue, e.toString());
      } finally {
        lock.unlock();
      }
    }
  }

  @Override
  public void close() {
    consumers.forEach(ConsumerChannel::cancel);
    handlers.close(); // waits for handlers in progress, which settle and ack
    closeChannels();
    onClose.run();
  }

  /** Test hook for a killed process: nothing in progress is settled; the connection's end requeues it. */
  void abandon() {
    abandoned = true;
    handlers.shutdown();
    onClose.run();
  }

  private void closeChannels() {
    consumers.forEach(ConsumerChannel::closeChannel);
  }
}
