package dev.tidings.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.events.activity.ActivityAccepted;
import dev.tidings.events.audience.Subscribed;
import dev.tidings.queue.Subscribing;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.UnknownQueueException;
import dev.tidings.queue.WorkQueue;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the outbox and its relay promise, on each database and queue: an event of a write that rolled
 * back is never told; every committed event reaches every listener at least once, even when no node
 * relayed it before it died, or a relay died after publishing and before committing; a listener's inbox
 * applies the repeats once.
 */
abstract class EventRelayContract {
  private Database database;
  private WorkQueue queue;
  private final List<Subscription> subscriptions = new ArrayList<>();
  private final String run = UUID.randomUUID().toString().substring(0, 8);

  protected abstract Database openDatabase();

  protected abstract WorkQueue openQueue(Database database);

  @BeforeEach
  void open() {
    database = openDatabase();
    queue = openQueue(database);
  }

  @AfterEach
  void close() throws Exception {
    for (Subscription subscription : subscriptions) subscription.close();
    queue.close();
    database.close();
  }

  /** A listener that remembers every delivery and, through its inbox, what it applied once. */
  private final class Recording implements EventListener {
    final String name;
    final List<String> delivered = new CopyOnWriteArrayList<>();
    final Set<String> applied = ConcurrentHashMap.newKeySet();

    Recording(String name) {
      this.name = name + "-" + run;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Set<CloudEventType> types() {
      return Set.of(CloudEventType.SUBSCRIBED);
    }

    @Override
    public void apply(List<ReceivedEvent> events) {
      events.forEach(event -> delivered.add(event.id()));
      database
          .jdbi()
          .useTransaction(handle -> EventInbox.unseen(handle, name, events)
              .forEach(event -> assertThat(applied.add(event.id())).isTrue()));
    }
  }

  private void consume(EventRoutes routes) {
    new EventConsumers(routes, queue, new SimpleMeterRegistry())
        .register(new Subscribing(queue, subscriptions));
  }

  private EventRelay relay(EventRoutes routes) {
    return new EventRelay(
        database.jdbi(), queue, routes, InstantSource.system(), new SimpleMeterRegistry());
  }

  /** Commits one write of {@code count} events, answering the subscriber ids it told. */
  private List<String> commit(int count) {
    List<String> subscribers = new ArrayList<>();
    database.jdbi().useTransaction(handle -> {
      List<Subscribed> events = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String id = "s-" + run + "-" + UUID.randomUUID();
        subscribers.add(id);
        events.add(new Subscribed(id, Instant.now()));
      }
      EventOutbox.ON.append(handle, events);
    });
    return subscribers;
  }

  private long count(String sql, String bound) {
    return database
        .jdbi()
        .withHandle(
            handle -> handle.createQuery(sql).bind("s", bound).mapTo(Long.class).one());
  }

  private Set<String> subjectsOf(Set<String> eventIds) {
    return new HashSet<>(database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT subject FROM event_log WHERE id = ANY(:ids)")
            .bindArray("ids", String.class, List.copyOf(eventIds))
            .mapTo(String.class)
            .list()));
  }

  @Test
  void an_event_of_a_write_that_rolled_back_is_never_told() {
    var listener = new Recording("rollback");
    var routes = new EventRoutes(List.of(listener));
    consume(routes);
    assertThatThrownBy(() -> database.jdbi().useTransaction(handle -> {
          EventOutbox.ON.append(
              handle, List.of(new Subscribed("rolled-back-" + run, Instant.now())));
          throw new IllegalStateException("the emitter's write failed");
        }))
        .hasMessageContaining("write failed");
    List<String> committed = commit(3);

    relay(routes).drain();

    await().atMost(Duration.ofSeconds(20)).until(() -> listener.applied.size() >= 3);
    assertThat(subjectsOf(listener.applied)).containsExactlyInAnyOrderElementsOf(committed);
    assertThat(count("SELECT count(*) FROM event_log WHERE subject = :s", "rolled-back-" + run))
        .isZero();
  }

  @Test
  void
      committed_events_reach_every_listener_though_the_node_died_before_relaying_and_a_relay_died_before_committing() {
    var first = new Recording("first");
    var second = new Recording("second");
    var routes = new EventRoutes(List.of(first, second));
    // committed while no node relays (the node that wrote them was killed before its relay ran)
    List<String> committed = new ArrayList<>();
    for (int write = 0; write < 5; write++) committed.addAll(commit(40));

    // a relay that dies after publishing to the first listener and before it commits: its
    // transaction rolls back, the outbox keeps every event
    queue.declare(EventRoutes.queue(first));
    assertThatThrownBy(() -> relay(routes).drain()).isInstanceOf(UnknownQueueException.class);
    consume(routes);

    // another node's relay takes them all again
    relay(routes).drain();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> first.applied.size() >= 200 && second.applied.size() >= 200);
    assertThat(subjectsOf(first.applied)).containsExactlyInAnyOrderElementsOf(committed);
    assertThat(subjectsOf(second.applied)).containsExactlyInAnyOrderElementsOf(committed);
    assertThat(first.applied)
        .as("the first listener applied each once, though the dead relay may have published them"
            + " (on RabbitMQ; the queue tables roll back with the relay's transaction)")
        .hasSize(200);
    assertThat(count(
            "SELECT count(*) FROM event_outbox, jsonb_array_elements(CAST(events AS jsonb)) AS e"
                + " WHERE e->>'subject' LIKE :s",
            "s-" + run + "%"))
        .isZero();
  }

  @Test
  void a_batch_written_in_columns_is_relayed_as_one_event_each_in_its_order() {
    var routes = new EventRoutes(List.of());
    var at = Instant.parse("2026-03-01T09:30:00.123456Z");
    List<ActivityEvent> views = new ArrayList<>();
    for (int i = 0; i < 3; i++)
      views.add(new ActivityEvent(
          Optional.of("ev-" + run + "-" + i),
          "u-" + run + "-" + i,
          EventType.VIEW,
          "p-" + i,
          at.plusSeconds(i),
          i + 1,
          Optional.empty()));
    new ActivityIntake(database.jdbi(), InstantSource.system()).record(views);
    relay(routes).drain();

    List<CloudEvent> logged = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT position, CAST(data AS text) AS data, id, type, subject, occurred"
                + " FROM event_log WHERE subject LIKE :s ORDER BY position")
            .bind("s", "u-" + run + "-%")
            .map((rs, ctx) -> new CloudEvent(
                rs.getString("id"),
                rs.getLong("position"),
                CloudEventType.named(rs.getString("type")).orElseThrow(),
                rs.getString("subject"),
                rs.getTimestamp("occurred").toInstant(),
                dev.tidings.Json.MAPPER.readTree(rs.getString("data"))))
            .list());
    assertThat(logged).hasSize(3);
    assertThat(logged).extracting(CloudEvent::id).doesNotHaveDuplicates();
    for (int i = 0; i < 3; i++) {
      var accepted = (ActivityAccepted) logged.get(i).event();
      assertThat(accepted)
          .isEqualTo(new ActivityAccepted(
              "ev-" + run + "-" + i,
              "u-" + run + "-" + i,
              "view",
              "p-" + i,
              i + 1,
              at.plusSeconds(i)));
      assertThat(logged.get(i).time()).isEqualTo(at.plusSeconds(i));
    }
  }

  @Test
  void positions_follow_the_order_of_the_commits() {
    var routes = new EventRoutes(List.of());
    List<String> committed = new ArrayList<>();
    for (int write = 0; write < 4; write++) committed.addAll(commit(3));
    relay(routes).drain();
    List<String> logged = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT subject FROM event_log WHERE subject = ANY(:s) ORDER BY position")
            .bindArray("s", String.class, committed)
            .mapTo(String.class)
            .list());
    assertThat(logged).containsExactlyElementsOf(committed);
  }
}
