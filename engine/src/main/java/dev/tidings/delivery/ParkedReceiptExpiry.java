package dev.tidings.delivery;

import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.Election;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops parked receipts older than the retention (a receipt for mail this Tidings never recorded
 * sending would otherwise wait forever), and counts them. Its job runs on every worker node: the
 * deletes of two nodes meet on the same rows and delete each row once, so no node has to be chosen.
 */
public final class ParkedReceiptExpiry {
  public static final String METRIC = "tidings.delivery.parked.receipts.expired";
  private static final Logger log = LoggerFactory.getLogger(ParkedReceiptExpiry.class);
  private static final Duration LONGEST_PAUSE = Duration.ofHours(1);

  private final ReceiptStore store;
  private final Duration retention;
  private final InstantSource clock;
  private final Counter expired;

  public ParkedReceiptExpiry(
      ReceiptStore store, Duration retention, InstantSource clock, MeterRegistry metrics) {
    if (retention.isNegative() || retention.isZero())
      throw new IllegalArgumentException("retention must be longer than zero, got " + retention);
    this.store = store;
    this.retention = retention;
    this.clock = clock;
    this.expired = Counter.builder(METRIC)
        .description("parked delivery receipts dropped after the retention without their message")
        .register(metrics);
  }

  /** Expires every {@link #pauseFor(Duration) pause}, the first time after one pause. */
  public BackgroundJob job() {
    return job(pauseFor(retention));
  }

  /** As {@link #job()}, every {@code every}. */
  public BackgroundJob job(Duration every) {
    return BackgroundJob.of(
        "parked-receipt-expiry", every, every, Election.everyNode(), this::expireNow);
  }

  /**
   * A quarter of the retention, at most an hour: a receipt outlives it by that much at most, and a
   * node never scans the parked receipts' age index more often than it needs to.
   */
  static Duration pauseFor(Duration retention) {
    Duration quarter = retention.dividedBy(4);
    return quarter.compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : quarter;
  }

  /** Drops the receipts parked longer than the retention now; returns how many. */
  public int expireNow() {
    int dropped = store.expireParked(clock.instant().minus(retention));
    store.expireUnknownEventIds(clock.instant());
    expired.increment(dropped);
    if (dropped > 0)
      log.info(
          "dropped {} parked receipts that waited longer than {} for their message",
          dropped,
          retention);
    return dropped;
  }
}
