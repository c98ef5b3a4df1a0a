package dev.tidings.bench;

import dev.tidings.Json;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.send.SendOptions;
import dev.tidings.campaign.send.SendPipeline;
import dev.tidings.coordination.Coordination;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.queue.WorkQueue;
import dev.tidings.sendtime.OpenHours;
import dev.tidings.sendtime.SendTimeMetrics;
import dev.tidings.sendtime.SendTimePlans;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.Locale;
import java.util.UUID;
import java.util.function.BiFunction;
import org.jdbi.v3.core.Jdbi;

/**
 * Planning a campaign's send times for {@code subscribers} recipients, a {@code historyShare} of them
 * with open hours (one to four hours of the week each, a few opens in each), the rest spread over a
 * handful of time zones and UTC. Three figures in the same run, on the same audience: the baseline,
 * today's path of starting a campaign at once (the audience read into the send ledger, partitions
 * queued); the same start with send time per subscriber (open hours read a page at a time, planned,
 * written into the ledger with their hours and cohorts); and the planning alone, without the ledger.
 */
public final class SendTimeBench {
  private static final String[] ZONES = {
    "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "Asia/Tokyo", "UTC"
  };

  public record Options(long subscribers, double historyShare) {
    public Options {
      if (subscribers < 1) throw new IllegalArgumentException("subscribers must be at least 1");
      if (!(historyShare >= 0 && historyShare <= 1))
        throw new IllegalArgumentException("historyShare must be within 0..1");
    }
  }

  public record Phase(String name, double seconds, double recipientsPerSecond) {}

  public record Result(
      Options options,
      String database,
      long openHourRows,
      double loadSeconds,
      Phase atOnce,
      Phase perSubscriber,
      Phase planningAlone) {}

  private SendTimeBench() {}

  public static Result run(
      Database database,
      WorkQueue queue,
      Options options,
      BiFunction<String, Long, Tracker> progress,
      PrintStream out) {
    Jdbi jdbi = database.jdbi();
    long loadStarted = System.nanoTime();
    long rows = load(jdbi, options, progress);
    double loadSeconds = seconds(loadStarted);
    out.printf(
        Locale.ROOT,
        "loaded %,d subscribers and %,d open-hour rows in %.1f s%n",
        options.subscribers(),
        rows,
        loadSeconds);
    var clock = InstantSource.system();
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    var coordination = new Coordination(
        InProcessCoordination.computeOnce(clock),
        InProcessCoordination.countdown(clock),
        InProcessCoordination.rateLimiter(clock));
    var metrics = new SimpleMeterRegistry();
    var plans = new SendTimePlans(new OpenHours(jdbi), new SendTimeMetrics(metrics));
    try (var pipeline = new SendPipeline(
        jdbi,
        queue,
        coordination,
        SendOptions.defaults().withQueues("bench-st-" + suffix, "bench-sto-" + suffix),
        clock,
        metrics)) {
      var campaigns =
          new CampaignService(jdbi, pipeline.sends(), new AudienceQuery(jdbi, clock), clock, plans);
      Phase atOnce = start(campaigns, "at once (baseline)", "", options, out);
      Phase perSubscriber = start(
          campaigns,
          "per subscriber",
          ",\"sendTime\":{\"mode\":\"per-subscriber\",\"within\":\"PT24H\",\"holdout\":0.1}",
          options,
          out);
      Phase alone = planOnly(jdbi, plans, options, progress, out);
      out.printf(
          Locale.ROOT,
          "planned by source: history %,.0f, time_zone %,.0f, audience %,.0f, held out %,.0f%n",
          metrics
              .get("tidings_send_time_planned")
              .tag("source", "history")
              .counter()
              .count(),
          metrics
              .get("tidings_send_time_planned")
              .tag("source", "time_zone")
              .counter()
              .count(),
          metrics
              .get("tidings_send_time_planned")
              .tag("source", "audience")
              .counter()
              .count(),
          metrics.get("tidings_send_time_held_out").counter().count());
      queue.delete("bench-st-" + suffix);
      queue.delete("bench-sto-" + suffix);
      return new Result(
          options, database.describe(), rows, loadSeconds, atOnce, perSubscriber, alone);
    }
  }

  private static Phase start(
      CampaignService campaigns, String name, String sendTime, Options options, PrintStream out) {
    long id = campaigns
        .create(CampaignJson.fromJson(Json.MAPPER.readTree("""
            {"name":"bench %s","from":"news@shop.example","subject":"Hi","html":"<p>Hi</p>",
             "text":"Hi","ratePerSecond":1000%s}""".formatted(name, sendTime))))
        .id();
    long began = System.nanoTime();
    var progress = campaigns.send(id);
    Phase phase = phase(name, began, options.subscribers());
    if (progress.planned() != options.subscribers())
      throw new IllegalStateException(
          "planned " + progress.planned() + " of " + options.subscribers());
    out.printf(
        Locale.ROOT,
        "  %-20s started (audience read, planned, ledger written) in %.2f s, %,.0f recipients/s%n",
        name,
        phase.seconds(),
        phase.recipientsPerSecond());
    return phase;
  }

  private static Phase planOnly(
      Jdbi jdbi,
      SendTimePlans plans,
      Options options,
      BiFunction<String, Long, Tracker> progress,
      PrintStream out) {
    var audience = new AudienceQuery(jdbi, InstantSource.system());
    long began = System.nanoTime();
    var planner = plans.planner(1, InstantSource.system().instant(), Duration.ofHours(24), 0.1);
    Iterator<AudienceQuery.Member> members = audience.members(new Audience.All());
    var recipients = new Iterator<SendTimePlans.Recipient>() {
      @Override
      public boolean hasNext() {
        return members.hasNext();
      }

      @Override
      public SendTimePlans.Recipient next() {
        var member = members.next();
        return new SendTimePlans.Recipient(member.id(), member.timeZone());
      }
    };
    long count = 0;
    try (Tracker tracker = progress.apply("planning alone", options.subscribers())) {
      var planned = plans.plan(planner, recipients);
      while (planned.hasNext()) {
        planned.next();
        if (++count % 10_000 == 0) tracker.stepTo(count);
      }
      tracker.stepTo(count);
    }
    Phase phase = phase("planning alone", began, count);
    out.printf(
        Locale.ROOT,
        "  %-20s (audience with time zones, open hours, planner) in %.2f s, %,.0f recipients/s%n",
        phase.name(),
        phase.seconds(),
        phase.recipientsPerSecond());
    return phase;
  }

  private static long load(Jdbi jdbi, Options options, BiFunction<String, Long, Tracker> progress) {
    long chunk = 200_000;
    try (Tracker tracker = progress.apply("loading subscribers", options.subscribers())) {
      for (long from = 0; from < options.subscribers(); from += chunk) {
        long to = Math.min(options.subscribers(), from + chunk);
        long start = from;
        jdbi.useHandle(handle -> {
          handle
              .createUpdate("""
                  INSERT INTO subscribers (id, email, time_zone, created_at, updated_at)
                  SELECT 'b' || lpad(i::text, 9, '0'), 'b' || i || '@bench.example',
                         (:zones)[1 + (i % array_length(:zones, 1))], now(), now()
                  FROM generate_series(:from, :to - 1) AS i
                  ON CONFLICT DO NOTHING""")
              .bindArray("zones", String.class, (Object[]) ZONES)
              .bind("from", start)
              .bind("to", to)
              .execute();
          // a subscriber with history has one to four habitual hours, up to six opens in each
          handle
              .createUpdate("""
                  INSERT INTO send_time_open_hours (subscriber_id, hour_of_week, opens)
                  SELECT DISTINCT ON (1, 2) 'b' || lpad(i::text, 9, '0'),
                         ((i * 7919 + k * 31) % 168)::smallint, 1 + ((i + k) % 6)
                  FROM generate_series(:from, :to - 1) AS i, generate_series(1, 4) AS k
                  WHERE (i * 2654435761) % 1000 < :share * 1000 AND k <= 1 + (i % 4)
                  ON CONFLICT DO NOTHING""")
              .bind("from", start)
              .bind("to", to)
              .bind("share", options.historyShare())
              .execute();
        });
        tracker.stepTo(to);
      }
    }
    jdbi.useHandle(handle -> handle.execute("ANALYZE subscribers"));
    jdbi.useHandle(handle -> handle.execute("ANALYZE send_time_open_hours"));
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT count(*) FROM send_time_open_hours")
        .mapTo(Long.class)
        .one());
  }

  private static Phase phase(String name, long began, long recipients) {
    double seconds = seconds(began);
    return new Phase(name, seconds, recipients / seconds);
  }

  private static double seconds(long began) {
    return (System.nanoTime() - began) / 1e9;
  }
}
