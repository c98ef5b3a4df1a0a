package dev.tidings.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventListener.ReceivedEvent;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.activity.ActivityAccepted;
import dev.tidings.storage.Database;
import dev.tidings.testing.OutboxDeliveries;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.time.Instant;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each event the intake stores is told as accepted, with when it happened, in the statement (or the
 * transaction) that stores it; a replay of an event id is not told again, and an intake with its
 * events off tells nothing.
 */
@StartsServers
class ActivityEventsTest {
  private static final Instant AT = Instant.parse("2026-03-01T09:30:00Z");
  private Database database;
  private final String run = UUID.randomUUID().toString().substring(0, 8);

  @BeforeEach
  void open() {
    database = TestDatabases.embedded();
    OutboxDeliveries.take(database.jdbi(), EnumSet.noneOf(CloudEventType.class));
  }

  @AfterEach
  void close() {
    database.close();
  }

  private List<ActivityAccepted> told() {
    return OutboxDeliveries.take(database.jdbi(), EnumSet.of(CloudEventType.ACTIVITY_ACCEPTED))
        .stream()
        .map(ReceivedEvent::event)
        .map(ActivityAccepted.class::cast)
        .filter(event -> event.subscriberId().endsWith(run))
        .toList();
  }

  private ActivityEvent view(String eventId, String user) {
    return new ActivityEvent(
        Optional.of(eventId + run), user + run, EventType.VIEW, "p-1", AT, 1, Optional.empty());
  }

  @Test
  void stored_events_are_told_once_with_when_they_happened() {
    var intake = new ActivityIntake(database.jdbi(), InstantSource.system());
    intake.record(List.of(view("e1", "ann"), view("e2", "bob"), view("e1", "ann")));
    intake.record(List.of(view("e2", "bob"))); // a replay

    assertThat(told())
        .extracting(
            ActivityAccepted::eventId, ActivityAccepted::subscriberId, ActivityAccepted::time)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("e1" + run, "ann" + run, AT),
            org.assertj.core.groups.Tuple.tuple("e2" + run, "bob" + run, AT));
  }

  @Test
  void batches_with_a_listener_tell_too_and_an_intake_with_events_off_tells_nothing() {
    var batched =
        new ActivityIntake(database.jdbi(), InstantSource.system(), 2, (handle, stored) -> {});
    batched.record(List.of(view("b1", "cid"), view("b2", "cid"), view("b3", "cid")));
    assertThat(told())
        .extracting(ActivityAccepted::activity)
        .containsExactly("view", "view", "view");

    var quiet = new ActivityIntake(
        database.jdbi(), InstantSource.system(), 100, StoredEvents.NONE, EventOutbox.OFF);
    quiet.record(List.of(view("q1", "dee")));
    assertThat(told()).isEmpty();
  }
}
