package dev.tidings.bench;

import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.MessageExpiry;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.ReceiptStore;
import dev.tidings.message.MessageId;
import dev.tidings.retention.Expiring;
import dev.tidings.retention.Retention;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * Removing a month of old messages while the receipts keep coming: {@code messages} delivered emails
 * (each with its status row and two funnel steps) aged 181 to 210 days, past the default lifetime,
 * then the delivery store's foreground work, batches of send records for new emails and deliveries of
 * those sent a little earlier, measured alone and then while the node's retention job removes the
 * month.
 */
public final class RetentionBench {
  private static final long OLD_CAMPAIGN = 1;
  private static final long NEW_CAMPAIGN = 2;
  private static final int LOAD_CHUNK = 500_000;
  /** Deliveries follow the send records this many batches later. */
  private static final int DELIVERY_LAG = 10;

  public record Options(long messages, int batch, int receiptsPerBatch, Duration baseline) {
    public Options {
      if (messages < 1 || batch < 1 || receiptsPerBatch < 2 || baseline.isNegative())
        throw new IllegalArgumentException("messages, batch and receipts must be positive");
    }
  }

  /** The foreground's figures over one phase. */
  public record Foreground(
      String phase,
      long batches,
      long receipts,
      double seconds,
      double receiptsPerSecond,
      double p50Ms,
      double p99Ms,
      double maxMs) {}

  public record Result(
      Options options,
      String database,
      double loadSeconds,
      long messagesRemoved,
      long rowsRemoved,
      double removalSeconds,
      double messagesRemovedPerSecond,
      double rowsRemovedPerSecond,
      List<Foreground> foreground) {}

  private RetentionBench() {}

  public static Result run(
      Database database,
      Options options,
      BiFunction<String, Long, Tracker> progress,
      PrintStream out) {
    Jdbi jdbi = database.jdbi();
    long loadStarted = System.nanoTime();
    load(jdbi, options.messages(), progress);
    double loadSeconds = seconds(loadStarted);
    long rowsBefore = oldRows(jdbi);
    out.printf(
        Locale.ROOT,
        "loaded %,d old messages (%,d rows with their steps) in %.1f s%n",
        options.messages(),
        rowsBefore,
        loadSeconds);

    var store = new ReceiptStore(jdbi, InstantSource.system(), new SimpleMeterRegistry());
    var foreground = new Receipts(store, options.receiptsPerBatch());
    var phases = new ArrayList<Foreground>();
    phases.add(foreground.measure("alone", options.baseline(), new AtomicBoolean(false)));
    out.println(describe(phases.getLast()));

    var metrics = new SimpleMeterRegistry();
    var retention = new Retention(
        List.of(new Expiring(new MessageExpiry(jdbi), Duration.ofDays(180))),
        InstantSource.system(),
        metrics,
        options.batch());
    var counted = metrics.get(Retention.REMOVED).counter();
    var done = new AtomicBoolean();
    var removed = new AtomicReference<Retention.Run>();
    var failure = new AtomicReference<RuntimeException>();
    long removalStarted = System.nanoTime();
    Thread remover = Thread.ofPlatform().name("bench-retention").start(() -> {
      try {
        removed.set(retention.runOnce());
      } catch (RuntimeException e) {
        failure.set(e);
      } finally {
        done.set(true);
      }
    });
    Thread shower = Thread.ofVirtual().start(() -> {
      // the job's own count, so that showing progress puts no load of its own on the database
      try (Tracker tracker = progress.apply("removing old messages", options.messages())) {
        while (!done.get()) {
          tracker.stepTo((long) counted.count());
          Thread.sleep(1_000);
        }
        tracker.stepTo((long) counted.count());
      } catch (Exception ignored) {
        // only the display stops
      }
    });
    phases.add(foreground.measure("during removal", null, done));
    try {
      remover.join();
      shower.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    if (failure.get() != null) throw failure.get();
    double removalSeconds = seconds(removalStarted);
    long rowsAfter = oldRows(jdbi);
    long messagesRemoved = removed.get().total();
    out.println(describe(phases.getLast()));
    phases.add(foreground.measure("after", options.baseline(), new AtomicBoolean(false)));
    out.println(describe(phases.getLast()));
    var result = new Result(
        options,
        database.describe(),
        loadSeconds,
        messagesRemoved,
        rowsBefore - rowsAfter,
        removalSeconds,
        messagesRemoved / removalSeconds,
        (rowsBefore - rowsAfter) / removalSeconds,
        phases);
    out.printf(
        Locale.ROOT,
        "removed %,d messages (%,d rows with their steps) in %.1f s: %,.0f messages/s, %,.0f rows/s%n",
        messagesRemoved,
        result.rowsRemoved(),
        removalSeconds,
        result.messagesRemovedPerSecond(),
        result.rowsRemovedPerSecond());
    return result;
  }

  /** A month of delivered messages, 181 to 210 days old, with their SENT and DELIVERED steps. */
  private static void load(Jdbi jdbi, long messages, BiFunction<String, Long, Tracker> progress) {
    try (Tracker tracker = progress.apply("loading old messages", messages)) {
      for (long from = 1; from <= messages; from += LOAD_CHUNK) {
        long to = Math.min(messages, from + LOAD_CHUNK - 1);
        long first = from;
        jdbi.useTransaction(handle -> {
          handle.execute("SET LOCAL synchronous_commit = off");
          String age = "now() - interval '181 days' - (i % 30) * interval '1 day'"
              + " - (i % 86400) * interval '1 second'";
          handle.execute("INSERT INTO message_status (message_id, campaign_id, subscriber_id,"
              + " status, status_at, sent_at) SELECT 'old-' || i, " + OLD_CAMPAIGN + ", 's' || i, "
              + DeliveryStatus.DELIVERED.priority() + ", " + age + ", " + age
              + " FROM generate_series(" + first + "::bigint, " + to + ") i");
          handle.execute("INSERT INTO message_steps (message_id, step, campaign_id, first_at,"
              + " source) SELECT 'old-' || i, st, " + OLD_CAMPAIGN + ", " + age + ", 'SMTP'"
              + " FROM generate_series(" + first + "::bigint, " + to + ") i,"
              + " unnest(ARRAY[" + DeliveryStatus.SENT.priority() + ", "
              + DeliveryStatus.DELIVERED.priority() + "]) st");
        });
        tracker.stepTo(to);
      }
    } catch (Exception e) {
      if (e instanceof RuntimeException runtime) throw runtime;
      throw new IllegalStateException(e);
    }
    // a month-old table has long been vacuumed and written out: without this the foreground alone
    // would be measured against the load's own vacuum and checkpoint
    jdbi.useHandle(handle -> {
      handle.execute("VACUUM (ANALYZE) message_status, message_steps");
      try {
        handle.execute("CHECKPOINT");
      } catch (RuntimeException notAllowed) {
        // CHECKPOINT needs a superuser (or pg_checkpoint); the vacuum did most of the settling
      }
    });
  }

  private static long oldRows(Jdbi jdbi) {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT (SELECT count(*) FROM message_status WHERE campaign_id = " + OLD_CAMPAIGN
                + ") + (SELECT count(*) FROM message_steps WHERE message_id LIKE 'old-%')")
        .mapTo(Long.class)
        .one());
  }

  /**
   * The foreground: each batch, in one transaction as the consumers apply them, half send records of
   * new emails (their status rows and steps inserted) and half deliveries of emails sent {@link
   * #DELIVERY_LAG} batches before (statuses moved, steps inserted).
   */
  private static final class Receipts {
    private final ReceiptStore store;
    private final int half;
    private long batchNumber;

    Receipts(ReceiptStore store, int receiptsPerBatch) {
      this.store = store;
      this.half = receiptsPerBatch / 2;
    }

    /** For {@code duration}, or (when null) until {@code stop} is set. */
    Foreground measure(String phase, @Nullable Duration duration, AtomicBoolean stop) {
      List<Long> latencies = new ArrayList<>();
      long receipts = 0;
      long started = System.nanoTime();
      long end = duration == null ? Long.MAX_VALUE : started + duration.toNanos();
      while (!stop.get() && System.nanoTime() < end) {
        List<Receipt> batch = next();
        long before = System.nanoTime();
        store.apply(batch, List.of());
        latencies.add(System.nanoTime() - before);
        receipts += batch.size();
      }
      double seconds = seconds(started);
      long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
      return new Foreground(
          phase,
          sorted.length,
          receipts,
          seconds,
          receipts / seconds,
          percentile(sorted, 0.50),
          percentile(sorted, 0.99),
          sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
    }

    private List<Receipt> next() {
      long number = batchNumber++;
      Instant now = Instant.now();
      var batch = new ArrayList<Receipt>(half * 2);
      for (int i = 0; i < half; i++)
        batch.add(Receipt.of(id(number, i), DeliveryStatus.SENT, now, ReceiptSource.SMTP));
      if (number >= DELIVERY_LAG)
        for (int i = 0; i < half; i++)
          batch.add(Receipt.of(
              id(number - DELIVERY_LAG, i), DeliveryStatus.DELIVERED, now, ReceiptSource.API));
      return batch;
    }

    private static String id(long batch, int i) {
      return new MessageId(NEW_CAMPAIGN, 1, "n" + batch + "-" + i).text();
    }
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) return 0;
    int index = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
    return sorted[Math.max(0, index)] / 1e6;
  }

  private static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }

  private static String describe(Foreground f) {
    return String.format(
        Locale.ROOT,
        "receipts %-15s %,9.0f receipts/s  batch p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%,d batches)",
        f.phase(),
        f.receiptsPerSecond(),
        f.p50Ms(),
        f.p99Ms(),
        f.maxMs(),
        f.batches());
  }
}
