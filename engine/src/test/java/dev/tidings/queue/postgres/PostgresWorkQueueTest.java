package dev.tidings.queue.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.queue.Delivery;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.WorkQueueContract;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The work-queue contract on PostgreSQL queue tables in the embedded PostgreSQL (surefire). */
@StartsServers
class PostgresWorkQueueTest extends WorkQueueContract {
  private static Database database;

  @BeforeAll
  static void openDatabase() {
    database = TestDatabases.embedded();
  }

  @AfterAll
  static void closeDatabase() {
    if (database != null) database.close();
  }

  @Override
  protected WorkQueue openQueue() {
    return new PostgresWorkQueue(database, PostgresWorkQueueFixture.FAST, metrics);
  }

  @Override
  protected void crash(WorkQueue queue) {
    ((PostgresWorkQueue) queue).abandon();
  }

  @Override
  protected AutoCloseable stallPublishing(WorkQueue queue) {
    return PostgresWorkQueueFixture.lockMessageTable(database);
  }

  @Test
  void the_leases_a_killed_process_left_end_at_the_next_start_not_after_the_visibility_timeout()
      throws Exception {
    String queueName = "wq-killed-" + UUID.randomUUID().toString().substring(0, 8);
    // a schema of its own: ending every lease must not touch the other tests' queues
    try (var alone = TestDatabases.embedded()) {
      var killed = new PostgresWorkQueue(alone, PostgresWorkQueueFixture.FAST, metrics);
      // the default visibility timeout (5 min) and 2 deliveries: waiting it out is not an option
      killed.declare(new QueueSpec(queueName, 0, 2, QueueSpec.DEFAULT_VISIBILITY_TIMEOUT));
      killed.publishAll(
          queueName, List.of(Message.of(new byte[] {1}, 0), Message.of(new byte[] {2}, 0)));
      BlockingQueue<Delivery> held = new LinkedBlockingQueue<>();
      killed.subscribe(queueName, 2, 1, delivery -> {
        held.add(delivery);
        Thread.sleep(Long.MAX_VALUE);
        return Disposition.ACK;
      });
      assertThat(held.poll(10, TimeUnit.SECONDS)).isNotNull();
      assertThat(held.poll(10, TimeUnit.SECONDS)).isNotNull();
      killed.abandon();

      try (var restarted = new PostgresWorkQueue(alone, PostgresWorkQueueFixture.FAST, metrics)) {
        assertThat(restarted.endLeasesOfAnEarlierProcess()).isEqualTo(2);
        BlockingQueue<Delivery> again = new LinkedBlockingQueue<>();
        Subscription subscription = restarted.subscribe(queueName, 2, 1, delivery -> {
          again.add(delivery);
          return Disposition.ACK;
        });
        try {
          assertThat(again.poll(10, TimeUnit.SECONDS))
              .as("delivered again at once, not after 5 minutes")
              .isNotNull();
          assertThat(again.poll(10, TimeUnit.SECONDS)).isNotNull();
        } finally {
          subscription.close();
        }
      }
    }
  }

  @Test
  void an_idle_consumer_is_woken_by_notify_long_before_its_poll_interval() throws Exception {
    String queueName = "wq-notify-" + UUID.randomUUID().toString().substring(0, 8);
    var slowPolling = new PostgresQueueOptions(
        Duration.ofSeconds(60), PostgresQueueOptions.DEFAULT_NOTIFY_INTERVAL);
    try (var consumerNode =
            new PostgresWorkQueue(database, slowPolling, new SimpleMeterRegistry());
        var producerNode =
            new PostgresWorkQueue(database, slowPolling, new SimpleMeterRegistry())) {
      consumerNode.declare(QueueSpec.of(queueName));
      BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
      Subscription subscription = consumerNode.subscribe(queueName, 1, 1, delivery -> {
        received.add(delivery);
        return Disposition.ACK;
      });
      try {
        Thread.sleep(300); // the consumer has found the queue empty and sleeps
        producerNode.publish(queueName, Message.of(new byte[] {42}, 0));
        assertThat(received.poll(5, TimeUnit.SECONDS))
            .as("woken by the other node's NOTIFY")
            .isNotNull();
      } finally {
        subscription.close();
      }
    }
  }

  @Test
  void an_idle_consumer_with_only_delayed_messages_sleeps_until_the_first_is_due()
      throws Exception {
    String queueName = "wq-due-" + UUID.randomUUID().toString().substring(0, 8);
    var slowPolling = new PostgresQueueOptions(
        Duration.ofSeconds(60), PostgresQueueOptions.DEFAULT_NOTIFY_INTERVAL);
    try (var node = new PostgresWorkQueue(database, slowPolling, new SimpleMeterRegistry())) {
      node.declare(QueueSpec.of(queueName));
      Instant first = Instant.now().plusMillis(3_000);
      Instant second = first.plusMillis(700);
      node.publishAll(
          queueName,
          List.of(
              Message.of(new byte[] {2}, 0).notBefore(second),
              Message.of(new byte[] {1}, 0).notBefore(first)));
      BlockingQueue<Instant> received = new LinkedBlockingQueue<>();
      Subscription subscription = node.subscribe(queueName, 1, 1, delivery -> {
        received.add(Instant.now());
        return Disposition.ACK;
      });
      try {
        Thread.sleep(200); // the consumer found nothing due and sleeps
        long before = committed();
        Thread.sleep(2_000); // not yet due: an idle consumer that spun would claim all along
        assertThat(committed() - before)
            .as("transactions in 2 s of a consumer waiting for a message due in 3 s")
            .isLessThan(30);
        Instant firstAt = received.poll(5, TimeUnit.SECONDS);
        Instant secondAt = received.poll(5, TimeUnit.SECONDS);
        assertThat(firstAt).as("woken by the first due time, not the 60 s poll").isNotNull();
        assertThat(secondAt).as("and again by the second").isNotNull();
        assertThat(firstAt).isAfterOrEqualTo(first).isBefore(first.plusMillis(500));
        assertThat(secondAt).isAfterOrEqualTo(second).isBefore(second.plusMillis(500));
      } finally {
        subscription.close();
      }
    }
  }

  /** Transactions committed in the test's database so far, as its statistics tell. */
  private static long committed() {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
            .mapTo(Long.class)
            .one());
  }

  @Test
  void a_declared_spec_survives_a_restart_and_binds_nodes_that_never_declared() {
    String queueName = "wq-restart-" + UUID.randomUUID().toString().substring(0, 8);
    try (var before =
        new PostgresWorkQueue(database, PostgresWorkQueueFixture.FAST, new SimpleMeterRegistry())) {
      before.declare(new QueueSpec(queueName, 9, 2, Duration.ofSeconds(5)));
    }
    try (var after =
        new PostgresWorkQueue(database, PostgresWorkQueueFixture.FAST, new SimpleMeterRegistry())) {
      after.publish(queueName, Message.of(new byte[] {7}, 3));
      BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
      Subscription subscription = after.subscribe(queueName, 1, 1, delivery -> {
        received.add(delivery);
        return Disposition.retry("again");
      });
      try {
        awaitUntil(
            "dead-lettered after the stored max deliveries of 2",
            () -> !after.deadLetters(queueName, 5).isEmpty());
      } finally {
        subscription.close();
      }
      assertThat(received).extracting(Delivery::deliveryCount).containsExactly(1, 2);
    }
  }

  /** Measured: 5 to 42 ms on an idle consumer (the next due time bounds its sleep). */
  @Override
  protected Duration lateAtMost() {
    return Duration.ofSeconds(1);
  }

  @Override
  protected int publishBufferBound() {
    return 0; // a publish returns only after its commit
  }
}
