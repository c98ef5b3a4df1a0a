package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.events.EventOutbox;
import dev.tidings.message.MessageId;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What applying receipts must do on every database behind {@link ReceiptStore}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
public abstract class ReceiptStoreContract {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final String PERSON = ReceiptStories.PERSON;
  private static final String APPLE_PREFETCH = ReceiptStories.APPLE_PREFETCH;
  private static final AtomicLong CAMPAIGNS =
      new AtomicLong(System.currentTimeMillis() % 1_000_000);

  private Database database;
  private ReceiptStore store;
  private DeliveryStats stats;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    store = new ReceiptStore(
        database.jdbi(), InstantSource.fixed(T0), EventOutbox.ON, new SimpleMeterRegistry());
    stats = new DeliveryStats(database.jdbi());
  }

  /** The funnel's steps that are told as events, with the type each is told as. */
  private static final Map<FunnelStep, String> TOLD = Map.of(
      FunnelStep.DELIVERED, "dev.tidings.delivery.delivered",
      FunnelStep.BOUNCED, "dev.tidings.delivery.bounced",
      FunnelStep.COMPLAINED, "dev.tidings.delivery.complained",
      FunnelStep.UNSUBSCRIBED, "dev.tidings.delivery.unsubscribed",
      FunnelStep.HUMAN_OPENED, "dev.tidings.delivery.opened",
      FunnelStep.HUMAN_CLICKED, "dev.tidings.delivery.clicked");

  /**
   * The events the receipts wrote for {@code campaign}, by step: in the outbox, or in the log when a
   * relay moved them; a batch rolled back (and tried again) takes its events with it.
   */
  private Map<FunnelStep, Long> told(long campaign) {
    Map<String, Long> byType = new java.util.HashMap<>();
    database
        .jdbi()
        .useHandle(handle -> handle
            .createQuery("""
                SELECT type, count(*) FROM (
                  SELECT e->>'type' AS type, e->'data' AS data
                    FROM event_outbox, jsonb_array_elements(CAST(events AS jsonb)) AS e
                  UNION ALL SELECT type, data FROM event_log) AS told
                 WHERE CAST(data->>'campaignId' AS bigint) = ? GROUP BY type""")
            .bind(0, campaign)
            .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getLong(2)))
            .forEach(row -> byType.put(row.getKey(), row.getValue())));
    Map<FunnelStep, Long> told = new EnumMap<>(FunnelStep.class);
    TOLD.forEach((step, type) -> {
      if (byType.containsKey(type)) told.put(step, byType.get(type));
    });
    return told;
  }

  @AfterAll
  void close() {
    database.close();
  }

  private static long campaign() {
    return CAMPAIGNS.incrementAndGet() * 1_000;
  }

  private static String message(long campaign, String subscriber) {
    return new MessageId(campaign, 1, subscriber).text();
  }

  private static Receipt receipt(
      String message, DeliveryStatus status, Instant at, ReceiptSource source) {
    return Receipt.of(message, status, at, source);
  }

  private static Receipt engagement(
      String message, DeliveryStatus status, Instant at, String agent, Optional<Integer> slot) {
    return ReceiptStories.engagement(message, status, at, agent, slot);
  }

  private void apply(Receipt... receipts) {
    store.apply(List.of(receipts), List.of());
  }

  @Test
  void what_the_store_applies_is_counted_for_prometheus() {
    var metrics = new SimpleMeterRegistry();
    var counted =
        new ReceiptStore(database.jdbi(), InstantSource.fixed(T0), EventOutbox.OFF, metrics);
    long campaign = campaign();
    String known = new MessageId(campaign, 1, "metrics-1").text();
    String early = new MessageId(campaign, 1, "metrics-2").text();
    counted.apply(List.of(receipt(known, DeliveryStatus.SENT, T0, ReceiptSource.SMTP)), List.of());
    counted.apply(
        List.of(
            receipt(known, DeliveryStatus.DELIVERED, T0.plusSeconds(1), ReceiptSource.SENDGRID),
            receipt(early, DeliveryStatus.DELIVERED, T0.plusSeconds(1), ReceiptSource.SENDGRID),
            receipt("not-ours", DeliveryStatus.BOUNCED, T0, ReceiptSource.SENDGRID)),
        List.of(new ReceiptStore.Unknown(ReceiptSource.SENDGRID, "group_resubscribe", "{}")));

    Function<String, Double> count = name -> metrics.get(name).counter().count();
    assertThat(
            metrics.get(ReceiptMetrics.RECEIPTS).tag("status", "sent").counter().count())
        .isEqualTo(1);
    assertThat(metrics
            .get(ReceiptMetrics.RECEIPTS)
            .tag("status", "delivered")
            .counter()
            .count())
        .isEqualTo(2);
    assertThat(metrics
            .get(ReceiptMetrics.RECEIPTS)
            .tag("status", "clicked")
            .counter()
            .count())
        .isZero();
    assertThat(count.apply("tidings_receipts_parked")).isEqualTo(1);
    assertThat(count.apply("tidings_receipts_undecodable")).isEqualTo(1);
    assertThat(count.apply("tidings_receipts_unknown_events")).isEqualTo(1);
    assertThat(count.apply("tidings_receipts_new_steps")).isGreaterThanOrEqualTo(2);
  }

  @Test
  void random_receipts_repeated_and_shuffled_on_four_consumers_give_the_oracles_funnel()
      throws Exception {
    long campaign = campaign();
    var stories = ReceiptStories.generate(campaign, 600, T0, new Random(campaign));
    List<Receipt> receipts = stories.receipts();
    Map<FunnelStep, Long> funnel = stories.funnel();
    Map<String, DeliveryStatus> finalStatus = stories.finalStatus();
    Map<Integer, Long> slotClicks = stories.slotClicks();
    List<List<Receipt>> batches = new ArrayList<>();
    for (int from = 0; from < receipts.size(); from += 40)
      batches.add(receipts.subList(from, Math.min(receipts.size(), from + 40)));
    var next = new AtomicInteger();
    try (var consumers = Executors.newFixedThreadPool(4)) {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < 4; c++)
        running.add(consumers.submit(() -> {
          for (int b = next.getAndIncrement(); b < batches.size(); b = next.getAndIncrement())
            applyRetryingDeadlocks(batches.get(b));
          return null;
        }));
      for (Future<?> consumer : running) consumer.get();
    }

    CampaignStats figures = stats.campaign(campaign, T0.minusSeconds(3_600));
    for (FunnelStep step : FunnelStep.values())
      assertThat(figures.count(step))
          .as("funnel %s", step)
          .isEqualTo(funnel.getOrDefault(step, 0L));
    Map<FunnelStep, Long> reached = new EnumMap<>(FunnelStep.class);
    funnel.forEach((step, count) -> {
      if (count > 0 && TOLD.containsKey(step)) reached.put(step, count);
    });
    assertThat(told(campaign)).as("new steps told as events, once each").isEqualTo(reached);
    assertThat(figures.slotClicks()).isEqualTo(slotClicks);
    Map<DeliveryStatus, Long> current = new EnumMap<>(DeliveryStatus.class);
    finalStatus.values().forEach(status -> current.merge(status, 1L, Long::sum));
    assertThat(figures.current()).isEqualTo(current);
    for (var expected : finalStatus.entrySet())
      assertThat(stats.message(expected.getKey()).orElseThrow().status())
          .as("status of %s", expected.getKey())
          .isEqualTo(expected.getValue());
    long perMinute = figures.minutes().stream()
        .mapToLong(minute -> minute.steps().getOrDefault(FunnelStep.SENT, 0L))
        .sum();
    assertThat(perMinute).isEqualTo(funnel.get(FunnelStep.SENT));
  }

  /** A consumer whose transaction lost a deadlock gets its batch again, as the queue redelivers it. */
  private void applyRetryingDeadlocks(List<Receipt> batch) {
    for (int attempt = 1; ; attempt++) {
      try {
        store.apply(batch, List.of());
        return;
      } catch (RuntimeException e) {
        if (attempt >= 5
            || !String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("deadlock"))
          throw e;
      }
    }
  }

  @Test
  void a_status_only_moves_forward_and_a_repeated_receipt_counts_once() {
    long campaign = campaign();
    String message = message(campaign, "forward");
    apply(receipt(message, DeliveryStatus.SENT, T0, ReceiptSource.SMTP));
    apply(engagement(message, DeliveryStatus.CLICKED, T0.plusSeconds(60), PERSON, Optional.of(2)));
    apply(receipt(message, DeliveryStatus.DELIVERED, T0.plusSeconds(2), ReceiptSource.API));
    apply(engagement(message, DeliveryStatus.CLICKED, T0.plusSeconds(90), PERSON, Optional.of(2)));

    assertThat(stats.message(message).orElseThrow().status()).isEqualTo(DeliveryStatus.CLICKED);
    CampaignStats figures = stats.campaign(campaign, T0.minusSeconds(60));
    assertThat(figures.count(FunnelStep.DELIVERED)).isEqualTo(1);
    assertThat(figures.count(FunnelStep.OPENED)).isEqualTo(1);
    assertThat(figures.count(FunnelStep.CLICKED)).isEqualTo(1);
    assertThat(figures.count(FunnelStep.HUMAN_CLICKED)).isEqualTo(1);
    assertThat(figures.slotClicks()).containsExactly(Map.entry(2, 1L));
    assertThat(figures.rates().get("click")).isEqualTo(1.0);
  }

  @Test
  void a_receipt_that_overtakes_its_send_record_is_parked_then_applied() {
    long campaign = campaign();
    String message = message(campaign, "early");
    var parked = store.apply(
        List.of(receipt(message, DeliveryStatus.DELIVERED, T0.plusSeconds(1), ReceiptSource.API)),
        List.of());
    assertThat(parked.parked()).isEqualTo(1);
    assertThat(stats.message(message)).isEmpty();
    assertThat(stats.campaign(campaign, T0).count(FunnelStep.DELIVERED)).isZero();

    var sent = store.apply(
        List.of(receipt(message, DeliveryStatus.SENT, T0, ReceiptSource.SMTP)), List.of());
    assertThat(sent.unparked()).isEqualTo(1);
    assertThat(stats.message(message).orElseThrow().status()).isEqualTo(DeliveryStatus.DELIVERED);
    assertThat(stats.campaign(campaign, T0).count(FunnelStep.DELIVERED)).isEqualTo(1);
  }

  @Test
  void machine_opens_and_scanner_clicks_are_counted_apart_from_people() {
    long campaign = campaign();
    String prefetched = message(campaign, "mpp");
    String scanned = message(campaign, "scanned");
    apply(
        receipt(prefetched, DeliveryStatus.SENT, T0, ReceiptSource.SMTP),
        receipt(scanned, DeliveryStatus.SENT, T0, ReceiptSource.SMTP));
    apply(
        engagement(
            prefetched,
            DeliveryStatus.OPENED,
            T0.plusSeconds(30),
            APPLE_PREFETCH,
            Optional.empty()),
        // a scanner at delivery: a browser-like agent, two seconds after the send
        engagement(scanned, DeliveryStatus.CLICKED, T0.plusSeconds(2), PERSON, Optional.of(0)));

    CampaignStats figures = stats.campaign(campaign, T0.minusSeconds(60));
    assertThat(figures.count(FunnelStep.OPENED)).isEqualTo(2);
    assertThat(figures.count(FunnelStep.CLICKED)).isEqualTo(1);
    assertThat(figures.count(FunnelStep.HUMAN_OPENED)).isZero();
    assertThat(figures.count(FunnelStep.HUMAN_CLICKED)).isZero();
    assertThat(figures.slotClicks()).isEmpty();
  }

  @Test
  void a_bounce_is_told_as_an_event_of_the_subscriber_in_the_same_transaction() {
    long campaign = campaign();
    String id = "bouncer-" + campaign;
    String message = message(campaign, id);
    apply(receipt(message, DeliveryStatus.SENT, T0, ReceiptSource.SMTP));
    assertThat(told(campaign)).doesNotContainKey(FunnelStep.BOUNCED);

    apply(receipt(message, DeliveryStatus.BOUNCED, T0.plusSeconds(4), ReceiptSource.API));
    apply(receipt(message, DeliveryStatus.BOUNCED, T0.plusSeconds(9), ReceiptSource.API));

    assertThat(told(campaign)).containsEntry(FunnelStep.BOUNCED, 1L);
    String subject = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("""
            SELECT e->>'subject' FROM event_outbox, jsonb_array_elements(CAST(events AS jsonb)) AS e
             WHERE e->>'type' = 'dev.tidings.delivery.bounced' AND e->'data'->>'messageId' = ?
            UNION ALL SELECT subject FROM event_log
             WHERE type = 'dev.tidings.delivery.bounced' AND data->>'messageId' = ?""")
            .bind(0, message)
            .bind(1, message)
            .mapTo(String.class)
            .one());
    assertThat(subject).isEqualTo(id);
  }

  @Test
  void a_test_sends_receipts_change_no_funnel_and_park_nothing() {
    long campaign = campaign();
    String test = new MessageId(campaign, MessageId.UNCOUNTED_RUN, "tester").text();
    var applied = store.apply(
        List.of(
            receipt(test, DeliveryStatus.SENT, T0, ReceiptSource.SMTP),
            receipt(test, DeliveryStatus.DELIVERED, T0.plusSeconds(1), ReceiptSource.API),
            engagement(test, DeliveryStatus.OPENED, T0.plusSeconds(9), PERSON, Optional.empty())),
        List.of());

    assertThat(applied.parked()).isZero();
    assertThat(applied.newSteps()).isZero();
    assertThat(stats.message(test)).isEmpty();
    CampaignStats figures = stats.campaign(campaign, T0.minusSeconds(60));
    assertThat(figures.count(FunnelStep.DELIVERED)).isZero();
    assertThat(figures.count(FunnelStep.OPENED)).isZero();
  }

  @Test
  void unknown_provider_events_are_counted_and_undecodable_ids_skipped() {
    var applied = store.apply(
        List.of(receipt("not a message id", DeliveryStatus.SENT, T0, ReceiptSource.API)),
        List.of(
            new ReceiptStore.Unknown(ReceiptSource.SENDGRID, "group_resubscribe", "{}"),
            new ReceiptStore.Unknown(ReceiptSource.SENDGRID, "group_resubscribe", "{\"a\":1}")));
    assertThat(applied.undecodable()).isEqualTo(1);
    long count = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT count FROM unknown_receipts WHERE source = 'SENDGRID'"
                + " AND event_type = 'group_resubscribe'")
            .mapTo(Long.class)
            .one());
    assertThat(count).isGreaterThanOrEqualTo(2);
  }

  @Test
  void the_most_clicked_products_are_those_in_the_slots_people_clicked() {
    long campaign = CAMPAIGNS.incrementAndGet();
    String first = "top-" + campaign + "-0";
    String second = "top-" + campaign + "-1";
    database.jdbi().useHandle(handle -> {
      for (String message : List.of(first, second))
        handle.execute(
            "INSERT INTO message_slots (message_id, subscriber_id, campaign_id, product_ids,"
                + " chosen_at) VALUES (?, ?, ?, ARRAY['shoe', 'hat'], now())",
            message,
            "reader-" + message,
            campaign);
      // slot 5 was never in the list: a click on it names no product
      handle.execute(
          "INSERT INTO slot_clicks (message_id, slot, campaign_id, first_at)"
              + " VALUES (?, 1, ?, now()), (?, 1, ?, now()), (?, 0, ?, now()), (?, 5, ?, now())",
          first,
          campaign,
          second,
          campaign,
          first,
          campaign,
          second,
          campaign);
    });

    assertThat(stats.topClickedProducts(campaign, 5))
        .containsExactly(
            new DeliveryStats.ProductClicks("hat", 2), new DeliveryStats.ProductClicks("shoe", 1));
    assertThat(stats.topClickedProducts(campaign, 1)).hasSize(1);
  }
}
