package dev.tidings.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.queue.Disposition;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Triggered sends overtake bulk partitions on the send queue without starving them (seed 05). */
@StartsServers
class SendPriorityTest {
  private Database database;
  private WorkQueue queue;
  private Topic<SendTask> tasks;

  @BeforeEach
  void open() {
    database = TestDatabases.embedded();
    queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    tasks = SendTopics.tasks(SendOptions.defaults()
        .withQueues("t-prio-" + UUID.randomUUID().toString().substring(0, 8), "t-prio-out"));
    queue.declare(tasks.spec());
  }

  @AfterEach
  void close() {
    queue.delete(tasks.name());
    queue.close();
    database.close();
  }

  private static SendTask task(int number, int priority) {
    return new SendTask(1, 1, number, null, priority, 10);
  }

  @Test
  void the_seeds_two_producers_and_one_consumer_take_1_3_4_2() throws Exception {
    // producer A pushes 1, 3, 4 at priority 9
    // (the seed's 10 on RabbitMQ's 0..9 scale), B pushes 2 at 0
    tasks.publish(queue, task(1, 9), 9);
    tasks.publish(queue, task(2, 0), 0);
    tasks.publish(queue, task(3, 9), 9);
    tasks.publish(queue, task(4, 9), 9);
    List<Integer> order = new CopyOnWriteArrayList<>();
    try (Subscription consumer = queue.subscribe(tasks.name(), 1, 1, tasks.handler(received -> {
      order.add(received.value().partition());
      return Disposition.ACK;
    }))) {
      SendHarness.await(Duration.ofSeconds(10), () -> order.size() == 4);
    }
    assertThat(order).containsExactly(1, 3, 4, 2);
  }

  @Test
  void a_stream_of_triggered_sends_does_not_starve_bulk_partitions() throws Exception {
    for (int bulk = 0; bulk < 20; bulk++) tasks.publish(queue, task(bulk, 2), 2);
    for (int triggered = 1000; triggered < 1040; triggered++)
      tasks.publish(queue, task(triggered, 9), 9);
    List<Integer> order = new CopyOnWriteArrayList<>();
    try (Subscription consumer = queue.subscribe(tasks.name(), 1, 1, tasks.handler(received -> {
      order.add(received.value().partition());
      return Disposition.ACK;
    }))) {
      SendHarness.await(Duration.ofSeconds(20), () -> order.size() == 60);
    }
    List<Integer> first40 = order.subList(0, 40);
    long triggeredFirst = first40.stream().filter(n -> n >= 1000).count();
    long bulkFirst = first40.size() - triggeredFirst;
    assertThat(triggeredFirst)
        .as("triggered sends overtake the bulk partitions queued before them")
        .isGreaterThanOrEqualTo(34);
    assertThat(bulkFirst)
        .as("while triggered sends keep coming, bulk partitions still get a share")
        .isGreaterThanOrEqualTo(3);
  }
}
