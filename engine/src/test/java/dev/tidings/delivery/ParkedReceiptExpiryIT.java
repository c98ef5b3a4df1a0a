package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidings.coordination.MutableClock;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.message.MessageId;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Parked receipts (their message not known yet) expire by the retention on real PostgreSQL: those
 * parked longer are dropped and counted, the younger ones still wait and are applied when their send
 * record comes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class ParkedReceiptExpiryIT {
  private static final Duration WEEK = Duration.ofDays(7);
  private Database database;

  @BeforeAll
  void open() {
    database = TestDatabases.real();
  }

  @AfterAll
  void close() {
    database.close();
  }

  private static String message(long campaign, String subscriber) {
    return new MessageId(campaign, 1, subscriber).text();
  }

  private long parked() {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT count(*) FROM parked_receipts")
            .mapTo(Long.class)
            .one());
  }

  @Test
  void receipts_parked_longer_than_the_retention_are_dropped_and_counted() {
    long campaign = System.currentTimeMillis() % 1_000_000 * 1_000;
    var clock = new MutableClock();
    var store = new ReceiptStore(database.jdbi(), clock, new SimpleMeterRegistry());
    Instant start = clock.instant();
    store.apply(
        List.of(
            Receipt.of(
                message(campaign, "old1"), DeliveryStatus.DELIVERED, start, ReceiptSource.API),
            Receipt.of(message(campaign, "old2"), DeliveryStatus.OPENED, start, ReceiptSource.API)),
        List.of());
    clock.advance(Duration.ofDays(6));
    store.apply(
        List.of(Receipt.of(
            message(campaign, "young"),
            DeliveryStatus.DELIVERED,
            clock.instant(),
            ReceiptSource.API)),
        List.of());
    assertThat(parked()).isEqualTo(3);

    clock.advance(Duration.ofDays(2));
    var metrics = new SimpleMeterRegistry();
    var expiry = new ParkedReceiptExpiry(store, WEEK, clock, metrics);
    assertThat(expiry.expireNow()).isEqualTo(2);
    assertThat(expiry.expireNow()).isZero();
    assertThat(metrics.get(ParkedReceiptExpiry.METRIC).counter().count()).isEqualTo(2.0);
    assertThat(parked()).isEqualTo(1);

    // the young receipt is still applied when its message becomes known; the dropped ones are not
    store.apply(
        List.of(
            Receipt.of(
                message(campaign, "young"),
                DeliveryStatus.IN_GATEWAY,
                clock.instant(),
                ReceiptSource.SMTP),
            Receipt.of(
                message(campaign, "old1"),
                DeliveryStatus.IN_GATEWAY,
                clock.instant(),
                ReceiptSource.SMTP)),
        List.of());
    var figures = new DeliveryStats(database.jdbi()).campaign(campaign, start);
    assertThat(figures.count(FunnelStep.DELIVERED)).isEqualTo(1);
    assertThat(figures.count(FunnelStep.OPENED)).isZero();
    assertThat(parked()).isZero();
  }

  @Test
  void the_running_expiry_drops_them_without_being_asked() throws InterruptedException {
    long campaign = System.currentTimeMillis() % 1_000_000 * 1_000 + 500;
    var clock = new MutableClock();
    var store = new ReceiptStore(database.jdbi(), clock, new SimpleMeterRegistry());
    store.apply(
        List.of(Receipt.of(
            message(campaign, "late"), DeliveryStatus.SENT, clock.instant(), ReceiptSource.API)),
        List.of());
    long before = parked();
    clock.advance(WEEK.plusSeconds(1));
    var metrics = new SimpleMeterRegistry();
    try (var jobs = new BackgroundJobs(metrics, clock)) {
      jobs.start(new ParkedReceiptExpiry(store, WEEK, clock, metrics).job(Duration.ofMillis(20)));
      await("the expiry's first removal counted")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> metrics.get(ParkedReceiptExpiry.METRIC).counter().count() >= 1);
    }
    assertThat(parked()).isEqualTo(before - 1);
  }

  @Test
  void the_retention_must_be_longer_than_zero() {
    var store = new ReceiptStore(database.jdbi(), new MutableClock(), new SimpleMeterRegistry());
    assertThatThrownBy(() -> new ParkedReceiptExpiry(
            store, Duration.ZERO, new MutableClock(), new SimpleMeterRegistry()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ParkedReceiptExpiry.pauseFor(WEEK)).isEqualTo(Duration.ofHours(1));
    assertThat(ParkedReceiptExpiry.pauseFor(Duration.ofMinutes(20)))
        .isEqualTo(Duration.ofMinutes(5));
  }
}
