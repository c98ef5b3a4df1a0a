package dev.tidings.queue.rabbitmq;

import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.testing.RealServers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A throughput probe of the RabbitMQ adapter on the machine's broker: publishers send persistent,
 * confirmed messages while consumers take them one at a time or in batches; prints messages per
 * second from the first publish to the last ack. Not a test: run its main with the test classpath.
 *
 * <p>Arguments: messages, mode (single|batch), consumers, prefetch or batch size, publishers, messages
 * per publishAll, priorities (1 = every message on one lane, 10 = spread over all).
 */
public final class RabbitThroughput {
  private RabbitThroughput() {}

  public static void main(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    String mode = args.length > 1 ? args[1] : "single";
    int consumers = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    int prefetch = args.length > 3 ? Integer.parseInt(args[3]) : 200;
    int publishers = args.length > 4 ? Integer.parseInt(args[4]) : 4;
    int chunk = args.length > 5 ? Integer.parseInt(args[5]) : 100;
    int priorities = args.length > 6 ? Integer.parseInt(args[6]) : 1;
    String name = "bench-" + UUID.randomUUID().toString().substring(0, 8);
    QueueSpec spec = QueueSpec.of(name);
    byte[] body = new byte[200];
    try (var queue = RabbitWorkQueue.connect(
        RealServers.amqpUrl(),
        RabbitQueueOptions.defaults(),
        InstantSource.system(),
        new SimpleMeterRegistry())) {
      queue.declare(spec);
      var consumed = new AtomicLong();
      var done = new CountDownLatch(1);
      long started = System.nanoTime();
      List<Thread> threads = new ArrayList<>();
      int perPublisher = messages / publishers;
      for (int p = 0; p < publishers; p++) {
        int publisher = p;
        threads.add(Thread.ofVirtual().start(() -> {
          for (int sent = 0; sent < perPublisher; sent += chunk) {
            var batch = new ArrayList<Message>(chunk);
            for (int i = 0; i < Math.min(chunk, perPublisher - sent); i++)
              batch.add(Message.of(body, (publisher + sent + i) % priorities));
            queue.publishAll(name, batch);
          }
        }));
      }
      long total = (long) perPublisher * publishers;
      Subscription subscription = mode.equals("batch")
          ? queue.subscribeBatches(name, consumers, prefetch, batch -> {
            if (consumed.addAndGet(batch.size()) >= total) done.countDown();
            return BatchResult.ACK_ALL;
          })
          : queue.subscribe(name, consumers, prefetch, delivery -> {
            if (consumed.incrementAndGet() >= total) done.countDown();
            return Disposition.ACK;
          });
      for (Thread thread : threads) thread.join();
      double publishSeconds = (System.nanoTime() - started) / 1e9;
      boolean finished = done.await(120, TimeUnit.SECONDS);
      double seconds = (System.nanoTime() - started) / 1e9;
      subscription.close();
      System.out.printf(
          "%s consumers=%d prefetch=%d publishers=%d chunk=%d priorities=%d: %d messages,"
              + " published in %.2f s (%.0f/s), consumed by %.2f s: %.0f messages/s%s%n",
          mode,
          consumers,
          prefetch,
          publishers,
          chunk,
          priorities,
          total,
          publishSeconds,
          total / publishSeconds,
          seconds,
          consumed.get() / seconds,
          finished ? "" : " (NOT FINISHED: " + consumed.get() + ")");
    } finally {
      RabbitWorkQueueIT.deleteAll(name, new LinkedHashSet<>(RabbitLayout.queueNames(spec)));
    }
  }
}
