package dev.tidings.events.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.tidings.Json;
import dev.tidings.events.CloudEvent;
import dev.tidings.events.EventLog;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.EventRelay;
import dev.tidings.events.EventRoutes;
import dev.tidings.events.EventStreamFeeder;
import dev.tidings.events.audience.Subscribed;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The log as a RabbitMQ stream on the real servers: a shop's consumer reading it from the first offset
 * gets every relayed event once, in log order, as CloudEvents JSON with its position; a feeder that
 * starts again (on another node, or with its cursor lost) appends nothing twice.
 */
class RabbitEventStreamIT {
  private final String name =
      "tidings.events.test-" + UUID.randomUUID().toString().substring(0, 8);
  private Database database;
  private PostgresWorkQueue queue;
  private RabbitEventStream stream;

  @BeforeEach
  void open() {
    database = TestDatabases.real();
    queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    stream = RabbitEventStream.connect(RealServers.amqpUrl(), Duration.ofDays(1), name);
  }

  @AfterEach
  void close() throws Exception {
    try (Connection connection = factory().newConnection();
        Channel channel = connection.createChannel()) {
      channel.queueDelete(name);
    }
    stream.close();
    queue.close();
    database.close();
  }

  private static ConnectionFactory factory() throws Exception {
    var factory = new ConnectionFactory();
    factory.setUri(RealServers.amqpUrl());
    return factory;
  }

  private List<String> subscribe(int count) {
    List<String> subjects = new ArrayList<>();
    database.jdbi().useTransaction(handle -> {
      List<Subscribed> events = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String id = name + "-" + UUID.randomUUID();
        subjects.add(id);
        events.add(new Subscribed(id, Instant.now()));
      }
      EventOutbox.ON.append(handle, events);
    });
    new EventRelay(
            database.jdbi(),
            queue,
            new EventRoutes(List.of()),
            InstantSource.system(),
            new SimpleMeterRegistry())
        .drain();
    return subjects;
  }

  /** What a shop's consumer reads from the stream's first offset: the CloudEvents, in order. */
  private List<CloudEvent> readAll(int expected) throws Exception {
    List<CloudEvent> read = new CopyOnWriteArrayList<>();
    try (Connection connection = factory().newConnection();
        Channel channel = connection.createChannel()) {
      channel.basicQos(500);
      channel.basicConsume(
          name, false, Map.of("x-stream-offset", "first"), new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(
                String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                throws java.io.IOException {
              read.add(CloudEvent.of(Json.MAPPER.readTree(body)));
              assertThat(properties.getContentType()).isEqualTo(CloudEvent.CONTENT_TYPE);
              getChannel().basicAck(envelope.getDeliveryTag(), false);
            }
          });
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (read.size() < expected && System.nanoTime() < deadline) Thread.sleep(20);
      Thread.sleep(300); // anything more would be a duplicate
    }
    return read;
  }

  @Test
  void a_consumer_from_the_first_offset_reads_every_event_once_in_log_order() throws Exception {
    List<String> first = subscribe(30);
    var feeder = new EventStreamFeeder(
        database.jdbi(), new EventLog(database.jdbi()), stream, new SimpleMeterRegistry());
    feeder.feed();
    List<String> second = subscribe(20);
    // another node's feeder with the same cursor, then one whose cursor was lost: nothing twice
    new EventStreamFeeder(
            database.jdbi(), new EventLog(database.jdbi()), stream, new SimpleMeterRegistry())
        .feed();
    database
        .jdbi()
        .useHandle(
            handle -> handle.execute("DELETE FROM event_stream_cursor WHERE stream = ?", name));
    assertThat(stream.lastPosition()).isPositive();
    feeder.feed();

    List<CloudEvent> read =
        readAll(50).stream().filter(event -> event.subject().startsWith(name)).toList();
    List<String> expected = new ArrayList<>(first);
    expected.addAll(second);
    assertThat(read).extracting(CloudEvent::subject).containsExactlyElementsOf(expected);
    assertThat(read).extracting(CloudEvent::position).isSorted().doesNotHaveDuplicates();
    assertThat(read.getFirst().event()).isInstanceOf(Subscribed.class);
  }
}
