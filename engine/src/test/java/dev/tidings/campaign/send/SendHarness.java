package dev.tidings.campaign.send;

import dev.tidings.coordination.Coordination;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.coordination.postgres.PostgresCountdown;
import dev.tidings.mail.MailTransport;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Subscribing;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.PlainComposer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

/**
 * The send pipeline on the embedded default (queue tables, countdown in PostgreSQL, in-process rate
 * limits) over a test database, with workers started and stopped by the test.
 */
final class SendHarness implements AutoCloseable {
  final Database database;
  final WorkQueue queue;
  final Coordination coordination;
  final SendOptions options;
  final SendPipeline pipeline;
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final List<Subscription> running = new ArrayList<>();

  SendHarness(Database database, SendOptions options) {
    this(database, options, InstantSource.system());
  }

  /** With the pipeline on {@code clock} (the rate limiter and leases stay on the system's). */
  SendHarness(Database database, SendOptions options, InstantSource clock) {
    this.database = database;
    this.queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    this.coordination = new Coordination(
        InProcessCoordination.computeOnce(InstantSource.system()),
        new PostgresCountdown(database),
        InProcessCoordination.rateLimiter(InstantSource.system()));
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    this.options = options.withQueues("t-send-" + suffix, "t-outcome-" + suffix);
    this.pipeline =
        new SendPipeline(database.jdbi(), queue, coordination, this.options, clock, metrics);
  }

  static SendOptions fast() {
    return SendOptions.defaults()
        .withPartitionSize(100)
        .withDeferrals(2, Duration.ofMillis(50))
        .withLeaseTtl(Duration.ofSeconds(3))
        .withWorkers(2, 4, 20)
        .withStateCacheTtl(Duration.ofMillis(100));
  }

  Sends sends() {
    return pipeline.sends();
  }

  /** Starts a worker node's consumers sending through {@code mail}. */
  void startWorkers(MailTransport mail) {
    startWorkers(new PlainComposer(), mail);
  }

  void startWorkers(Composer composer, MailTransport mail) {
    ConsumerGroup group = pipeline.consumers(composer, mail);
    group.register(new Subscribing(queue, running));
  }

  void stopWorkers() {
    running.forEach(Subscription::close);
    running.clear();
    pipeline.close();
  }

  static List<String> subscribers(int count) {
    return IntStream.range(0, count).mapToObj(i -> "s" + (100_000 + i)).toList();
  }

  static void await(Duration within, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new AssertionError("not within " + within);
      Thread.sleep(20);
    }
  }

  SendProgress progress(SendJob job) {
    return sends().progress(job.campaignId(), job.runId()).orElseThrow();
  }

  @Override
  public void close() {
    stopWorkers();
    queue.delete(options.queueName());
    queue.delete(options.receiptQueueName());
    queue.close();
    database.close();
  }
}
