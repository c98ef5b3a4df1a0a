package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.Mapped;
import dev.tidings.delivery.webhook.sendgrid.SendGridEvents;
import dev.tidings.delivery.webhook.ses.SesEvents;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.generic.GenericType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider that delivers the same signed request again (a retry, a replay) has its unknown events
 * counted once: they are told apart by the provider's event id (SendGrid's sg_event_id, the SNS
 * MessageId), carried through the queue's codec into the store.
 */
@StartsServers
class UnknownEventReplayTest {
  private static Database database;
  private ReceiptStore store;

  @BeforeAll
  static void openDatabase() {
    database = TestDatabases.embedded();
  }

  @AfterAll
  static void closeDatabase() {
    if (database != null) database.close();
  }

  @BeforeEach
  void emptyTables() {
    database.jdbi().useHandle(handle -> {
      handle.execute("DELETE FROM unknown_receipts");
      handle.execute("DELETE FROM webhook_replays");
    });
    store = new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry());
  }

  /** What the queue does to a request's unknown events: encoded, decoded, applied. */
  private final ReceiptSink throughTheQueue = new ReceiptSink() {
    @Override
    public void accept(List<Receipt> receipts) {}

    @Override
    public void unknown(ReceiptSource source, String eventType, String rawEvent) {
      unknown(source, eventType, rawEvent, Optional.empty());
    }

    @Override
    public void unknown(
        ReceiptSource source, String eventType, String rawEvent, Optional<String> eventId) {
      var codec = ReceiptQueue.TOPIC.codec();
      ReceiptBatch queued = codec.decode(codec.encode(new ReceiptBatch(
          List.of(), List.of(new ReceiptStore.Unknown(source, eventType, rawEvent, eventId)))));
      store.apply(queued.receipts(), queued.unknown());
    }
  };

  @Test
  void a_replayed_sendgrid_request_adds_its_unknown_events_once() {
    var body = Fixtures.json("sendgrid/events/docs-all-event-types.json");
    Mapped first = SendGridEvents.map(body);
    assertThat(first.unmapped()).hasSize(11);

    first.handTo(throughTheQueue);
    SendGridEvents.map(body).handTo(throughTheQueue);
    SendGridEvents.map(body).handTo(throughTheQueue);

    assertThat(counts("SENDGRID"))
        .hasSize(11)
        .allSatisfy((type, count) -> assertThat(count).as(type).isEqualTo(1L));
  }

  @Test
  void a_redelivered_sns_notification_adds_its_unknown_event_once() {
    for (int delivery = 0; delivery < 3; delivery++) {
      var mapped = new Mapped.Builder();
      SesEvents.map(
          Fixtures.json("amazon-ses-sns/ses-events/ses-event-Delivery.json"),
          "5d0ee2c2-9b3e-5b4e-b1f2-0f1c1d2e3f40",
          mapped);
      SesEvents.map(
          Fixtures.json("amazon-ses-sns/ses-events/ses-event-Subscription.json"),
          "0b7e5a55-1c66-5b9f-8e3c-2a1d4f6e7a80",
          mapped);
      Mapped built = mapped.build();
      assertThat(built.unmapped()).hasSize(2);
      built.handTo(throughTheQueue);
    }

    assertThat(counts("SES"))
        .hasSize(2)
        .allSatisfy((type, count) -> assertThat(count).as(type).isEqualTo(1L));
  }

  @Test
  void events_without_an_id_are_still_counted_each_time() {
    throughTheQueue.unknown(ReceiptSource.POSTMARK, "Inbound", "{}");
    throughTheQueue.unknown(ReceiptSource.POSTMARK, "Inbound", "{}");

    assertThat(counts("POSTMARK")).containsEntry("Inbound", 2L);
  }

  private Map<String, Long> counts(String source) {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT event_type, count FROM unknown_receipts WHERE source = :source")
            .bind("source", source)
            .setMapKeyColumn("event_type")
            .setMapValueColumn("count")
            .collectInto(new GenericType<Map<String, Long>>() {}));
  }
}
