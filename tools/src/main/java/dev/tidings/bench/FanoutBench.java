package dev.tidings.bench;

import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.TargetType;
import dev.tidings.notify.Content;
import dev.tidings.notify.ContentType;
import dev.tidings.notify.Notifications;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import org.jdbi.v3.core.Jdbi;

/**
 * Seed 04's fan-out on PostgreSQL: one publish to every follower of a brand with {@code followers}
 * followers, then {@code publishes} publishes to brands of {@code followers / publishes} followers each,
 * into today's buckets; then digest reads of users with a week of notifications. Beside it, in the same
 * run, the seed's first design: one row per notification in one big table with its indexes (the
 * baseline), written by one {@code INSERT ... SELECT} per publish (kinder to it than the seed's batches
 * of 100 from the application) and read with the query that design needs.
 */
public final class FanoutBench {
  /**
   * @param followers followers of the one big brand (every subscriber)
   * @param publishes publishes to smaller brands, which share the followers among them
   * @param readers users whose digests are read, each with a week of notifications
   */
  public record Options(int followers, int publishes, int readers, long seed) {
    public Options {
      if (followers < 1 || publishes < 1 || readers < 1)
        throw new IllegalArgumentException("followers, publishes and readers must be >= 1");
    }
  }

  /** One design's figures. */
  public record Design(
      String name,
      double bigPublishSeconds,
      double bigEventsPerSecond,
      double smallPublishesSeconds,
      double smallEventsPerSecond,
      long heapGrowthBytes,
      double readP50Millis,
      double readP99Millis,
      long rows,
      double archiveSeconds) {}

  public record Result(Options options, String database, List<Design> designs) {}

  private static final long MB = 1024 * 1024;

  private FanoutBench() {}

  public static Result run(
      Database database,
      Options options,
      EventIntakeBench.ProgressDisplay progress,
      PrintStream out) {
    var jdbi = database.jdbi();
    out.printf(
        Locale.ROOT,
        "%,d subscribers following one brand; %,d publishes to brands of %,d followers each;"
            + " digests of %,d users with 7 days of notifications%n",
        options.followers(),
        options.publishes(),
        options.followers() / options.publishes(),
        options.readers());
    audience(jdbi, options, progress);
    Instant now = Instant.now();
    var notifications = new Notifications(
        jdbi,
        InstantSource.system(),
        Notifications.ProductShelf.ALL_AVAILABLE,
        new SimpleMeterRegistry());
    var designs = new ArrayList<Design>();
    designs.add(buckets(jdbi, notifications, options, now, out));
    designs.add(oneBigTable(jdbi, options, out));
    var result = new Result(options, database.describe(), List.copyOf(designs));
    print(result, out);
    return result;
  }

  private static void audience(
      Jdbi jdbi, Options options, EventIntakeBench.ProgressDisplay progress) {
    int chunk = 100_000;
    int smallBrand = Math.max(1, options.followers() / options.publishes());
    try (Tracker tracker = progress.start("subscribers and follows", options.followers())) {
      for (int start = 1; start <= options.followers(); start += chunk) {
        int from = start;
        int to = Math.min(options.followers(), start + chunk - 1);
        jdbi.useTransaction(handle -> {
          handle.createUpdate("""
                  INSERT INTO subscribers (id, email, created_at, updated_at)
                  SELECT 's-' || i, 's-' || i || '@example.test', now(), now()
                    FROM generate_series(:from, :to) AS i""").bind("from", from).bind("to", to).execute();
          handle
              .createUpdate("""
                  INSERT INTO follows (subscriber_id, target_type, target_id, followed_at)
                  SELECT 's-' || i, 'brand', 'star', now() FROM generate_series(:from, :to) AS i
                  UNION ALL
                  SELECT 's-' || i, 'brand', 'small-' || ((i - 1) / :size), now()
                    FROM generate_series(:from, :to) AS i""")
              .bind("from", from)
              .bind("to", to)
              .bind("size", smallBrand)
              .execute();
        });
        tracker.stepTo(to);
      }
    }
    jdbi.useHandle(handle -> handle.execute("ANALYZE subscribers; ANALYZE follows"));
  }

  private static Content piece(String id, String brand) {
    return new Content(
        id,
        ContentType.PRODUCT,
        "New from " + brand,
        Optional.empty(),
        Optional.empty(),
        List.of(new FollowTarget(TargetType.BRAND, brand)),
        Optional.empty(),
        Content.DEFAULT_RADIUS_KM,
        Optional.empty(),
        Optional.empty(),
        false);
  }

  private static Design buckets(
      Jdbi jdbi, Notifications notifications, Options options, Instant now, PrintStream out) {
    String name = "day buckets (Tidings)";
    out.println(name + ": one publish to every follower ...");
    notifications.put(piece("big", "star"));
    long heapBefore = usedHeap();
    long started = System.nanoTime();
    long told = notifications.publish("big").orElseThrow().followers();
    double big = (System.nanoTime() - started) / 1e9;
    long heapGrowth = usedHeap() - heapBefore;
    out.printf(Locale.ROOT, "  %,d followers in %.2f s%n", told, big);
    for (int i = 0; i < options.publishes(); i++)
      notifications.put(piece("small-" + i, "small-" + i));
    started = System.nanoTime();
    long smallTold = 0;
    for (int i = 0; i < options.publishes(); i++)
      smallTold += notifications.publish("small-" + i).orElseThrow().followers();
    double small = (System.nanoTime() - started) / 1e9;
    out.printf(
        Locale.ROOT,
        "  %,d publishes, %,d followers in %.2f s%n",
        options.publishes(),
        smallTold,
        small);

    // a week of notifications for the readers: six earlier days of ten events each, plus today's
    // two
    LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
    for (int back = 1; back <= 6; back++) {
      LocalDate day = today.minusDays(back);
      notifications.ensureDay(day);
      jdbi.useHandle(handle -> handle
          .createUpdate("""
              INSERT INTO notification_buckets (day, subscriber_id, events)
              SELECT :day, 's-' || i, ARRAY(SELECT 'followed:big' FROM generate_series(1, 10))
                FROM generate_series(1, :readers) AS i""")
          .bind("day", day)
          .bind("readers", options.readers())
          .execute());
    }
    var random = new SplittableRandom(options.seed());
    long[] nanos = new long[options.readers()];
    for (int i = 0; i < nanos.length; i++) {
      String user = "s-" + (1 + random.nextInt(options.readers()));
      long start = System.nanoTime();
      var digest = notifications.digest(user, 7);
      nanos[i] = System.nanoTime() - start;
      if (digest.isEmpty()) throw new IllegalStateException("the digest of " + user + " is empty");
    }
    long rows = jdbi.withHandle(handle -> handle
        .createQuery("SELECT count(*) FROM notification_buckets")
        .mapTo(Long.class)
        .one());
    long archiveStarted = System.nanoTime();
    notifications.dropDaysBefore(today.plusDays(1));
    double archive = (System.nanoTime() - archiveStarted) / 1e9;
    return new Design(
        name,
        big,
        told / big,
        small,
        smallTold / small,
        heapGrowth,
        percentile(nanos, 0.50) / 1e6,
        percentile(nanos, 0.99) / 1e6,
        rows,
        archive);
  }

  private static Design oneBigTable(Jdbi jdbi, Options options, PrintStream out) {
    String name = "one row per notification (seed's first design)";
    out.println(name + ": one publish to every follower ...");
    jdbi.useHandle(handle -> handle.execute("""
        CREATE TABLE naive_notifications (
          id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, subscriber_id text NOT NULL,
          notifiable_id text NOT NULL, notifiable_type text NOT NULL, sent boolean NOT NULL DEFAULT false,
          created_at timestamptz NOT NULL DEFAULT now());
        CREATE UNIQUE INDEX naive_once ON naive_notifications (subscriber_id, notifiable_id);
        CREATE INDEX naive_by_object ON naive_notifications (notifiable_id);
        CREATE INDEX naive_unsent ON naive_notifications (subscriber_id, created_at) WHERE NOT sent"""));
    long started = System.nanoTime();
    long told = fanOutNaive(jdbi, "big", "star");
    double big = (System.nanoTime() - started) / 1e9;
    out.printf(Locale.ROOT, "  %,d followers in %.2f s%n", told, big);
    started = System.nanoTime();
    long smallTold = 0;
    for (int i = 0; i < options.publishes(); i++)
      smallTold += fanOutNaive(jdbi, "small-" + i, "small-" + i);
    double small = (System.nanoTime() - started) / 1e9;
    var random = new SplittableRandom(options.seed());
    long[] nanos = new long[options.readers()];
    for (int i = 0; i < nanos.length; i++) {
      String user = "s-" + (1 + random.nextInt(options.readers()));
      long start = System.nanoTime();
      int found = jdbi.withHandle(
          handle -> handle.createQuery("""
              SELECT n.notifiable_id, n.notifiable_type FROM naive_notifications n
                JOIN content c ON c.id = n.notifiable_id AND c.published
               WHERE n.subscriber_id = :user AND NOT n.sent
                 AND n.created_at > now() - interval '7 days'""").bind("user", user).mapToMap().list().size());
      nanos[i] = System.nanoTime() - start;
      if (found == 0) throw new IllegalStateException("nothing for " + user + " in the big table");
    }
    long rows = jdbi.withHandle(handle -> handle
        .createQuery("SELECT count(*) FROM naive_notifications")
        .mapTo(Long.class)
        .one());
    long archiveStarted = System.nanoTime();
    jdbi.useHandle(handle -> handle.execute(
        "DELETE FROM naive_notifications WHERE created_at < now() + interval '1 day'"));
    double archive = (System.nanoTime() - archiveStarted) / 1e9;
    return new Design(
        name,
        big,
        told / big,
        small,
        smallTold / small,
        0,
        percentile(nanos, 0.50) / 1e6,
        percentile(nanos, 0.99) / 1e6,
        rows,
        archive);
  }

  private static long fanOutNaive(Jdbi jdbi, String contentId, String brand) {
    return jdbi.withHandle(handle ->
        handle.createUpdate("""
            INSERT INTO naive_notifications (subscriber_id, notifiable_id, notifiable_type)
            SELECT subscriber_id, :content, 'ProductPublished' FROM follows
             WHERE target_type = 'brand' AND target_id = :brand
            ON CONFLICT (subscriber_id, notifiable_id) DO NOTHING""").bind("content", contentId).bind("brand", brand).execute());
  }

  private static long usedHeap() {
    var runtime = Runtime.getRuntime();
    System.gc();
    return runtime.totalMemory() - runtime.freeMemory();
  }

  private static long percentile(long[] values, double share) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(share * sorted.length) - 1;
    return sorted[Math.max(0, index)];
  }

  static void print(Result result, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%n%-48s %12s %14s %14s %12s %10s %10s %12s %12s%n",
        "design",
        "1 publish",
        "events/s",
        "small pub.",
        "events/s",
        "read p50",
        "read p99",
        "rows",
        "archive");
    for (Design d : result.designs())
      out.printf(
          Locale.ROOT,
          "%-48s %10.2f s %,14.0f %12.2f s %,12.0f %8.2fms %8.2fms %,12d %10.3f s%n",
          d.name(),
          d.bigPublishSeconds(),
          d.bigEventsPerSecond(),
          d.smallPublishesSeconds(),
          d.smallEventsPerSecond(),
          d.readP50Millis(),
          d.readP99Millis(),
          d.rows(),
          d.archiveSeconds());
    out.printf(
        Locale.ROOT,
        "archive: every day's notifications removed (dropping the day partitions, or deleting the rows)%n"
            + "heap growth during the big publish (Tidings): %d MB%n",
        result.designs().getFirst().heapGrowthBytes() / MB);
  }
}
