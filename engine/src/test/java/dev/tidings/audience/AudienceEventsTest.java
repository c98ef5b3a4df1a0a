package dev.tidings.audience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.events.CloudEventType;
import dev.tidings.events.DomainEvent;
import dev.tidings.events.EventListener.ReceivedEvent;
import dev.tidings.events.audience.ConsentChanged;
import dev.tidings.events.audience.Erased;
import dev.tidings.events.audience.Subscribed;
import dev.tidings.events.audience.Suppressed;
import dev.tidings.events.audience.Unsubscribed;
import dev.tidings.storage.Database;
import dev.tidings.testing.OutboxDeliveries;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the audience tells, whichever way a subscriber is written: a subscriber who consents is told
 * subscribed, a consent that changes is told with what it was, a withdrawal as unsubscribed, a
 * suppression by the subscriber's id (never the address), a deletion as erased; a rolled-back write
 * tells nothing.
 */
@StartsServers
class AudienceEventsTest {
  private Database database;
  private SubscriberService subscribers;
  private final String run = UUID.randomUUID().toString().substring(0, 8);

  @BeforeEach
  void open() {
    database = TestDatabases.embedded();
    subscribers = new SubscriberService(database.jdbi(), InstantSource.system());
    OutboxDeliveries.take(database.jdbi(), EnumSet.noneOf(CloudEventType.class));
  }

  @AfterEach
  void close() {
    database.close();
  }

  private Subscriber subscriber(String id, Consent consent) {
    return new Subscriber(
        id,
        id + "@example.com",
        Optional.empty(),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        consent,
        Optional.empty());
  }

  private List<DomainEvent> told() {
    return OutboxDeliveries.take(database.jdbi(), EnumSet.allOf(CloudEventType.class)).stream()
        .map(ReceivedEvent::event)
        .filter(event -> event.subject().endsWith(run))
        .toList();
  }

  @Test
  void each_change_of_a_subscriber_is_told_once_by_id() {
    String ann = "ann-" + run;
    String bob = "bob-" + run;
    subscribers.put(subscriber(ann, Consent.SUBSCRIBED));
    subscribers.put(subscriber(bob, Consent.PENDING));
    assertThat(told())
        .singleElement()
        .isInstanceOfSatisfying(
            Subscribed.class, event -> assertThat(event.subscriberId()).isEqualTo(ann));

    subscribers.put(subscriber(bob, Consent.SUBSCRIBED));
    subscribers.put(subscriber(ann, Consent.UNSUBSCRIBED));
    subscribers.put(subscriber(ann, Consent.UNSUBSCRIBED)); // no change, nothing told
    var changes = told();
    assertThat(changes)
        .filteredOn(ConsentChanged.class::isInstance)
        .extracting(event -> (ConsentChanged) event)
        .extracting(ConsentChanged::subscriberId, ConsentChanged::from, ConsentChanged::consent)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(bob, "pending", "subscribed"),
            org.assertj.core.groups.Tuple.tuple(ann, "subscribed", "unsubscribed"));
    assertThat(changes)
        .filteredOn(Subscribed.class::isInstance)
        .extracting(DomainEvent::subject)
        .containsExactly(bob);
    assertThat(changes)
        .filteredOn(Unsubscribed.class::isInstance)
        .extracting(DomainEvent::subject)
        .containsExactly(ann);

    var suppressions = new SuppressionService(database.jdbi(), InstantSource.system());
    database
        .jdbi()
        .useTransaction(handle -> SuppressionService.suppressSubscribers(
            handle, Map.of(bob, SuppressionReason.BOUNCE), Instant.now()));
    suppressions.suppress(
        new Suppression(ann + "@example.com", SuppressionReason.COMPLAINT, Instant.now()));
    assertThat(told())
        .extracting(event -> (Suppressed) event)
        .extracting(Suppressed::subscriberId, Suppressed::reason)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(bob, "bounce"),
            org.assertj.core.groups.Tuple.tuple(ann, "complaint"));

    assertThat(subscribers.delete(ann)).isTrue();
    assertThat(told()).singleElement().isInstanceOf(Erased.class);
  }

  @Test
  void a_write_that_rolled_back_tells_nothing() {
    try {
      database.jdbi().useTransaction(handle -> {
        SubscriberTable.upsert(handle, subscriber("cid-" + run, Consent.SUBSCRIBED), Instant.now());
        throw new IllegalStateException("the write failed");
      });
    } catch (IllegalStateException expected) {
      // rolled back
    }
    assertThat(told()).isEmpty();
    assertThat(subscribers.get("cid-" + run)).isEmpty();
  }
}
