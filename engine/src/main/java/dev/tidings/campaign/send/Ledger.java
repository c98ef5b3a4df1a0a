package dev.tidings.campaign.send;

import dev.tidings.events.EventOutbox;
import dev.tidings.events.campaign.HandedOver;
import dev.tidings.events.campaign.RunCompleted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * The send ledger in PostgreSQL (V7): runs with their counters, partitions with the fence of the
 * lease they are worked under, and one row per recipient. Every change to recipients is set-based
 * (one statement per chunk), and the run's counters change in the same transaction as the rows they
 * count, so {@code sent + failed + unknown + skipped} is always exact. Thread-safe.
 */
final class Ledger {
  static final String PLANNING = "PLANNING";

  private final Jdbi jdbi;
  private final EventOutbox outbox;

  Ledger(Jdbi jdbi) {
    this(jdbi, EventOutbox.ON);
  }

  /** @param outbox where a run's hand-over and completion are told, in the transaction that records them */
  Ledger(Jdbi jdbi, EventOutbox outbox) {
    this.jdbi = jdbi;
    this.outbox = outbox;
  }

  /** A recipient's fate after its SMTP reply; {@code planned} hands it back unsent. */
  enum Mark {
    planned,
    sent,
    failed,
    unknown,
    skipped
  }

  record Outcome(String subscriberId, Mark mark, String reason) {}

  record Run(
      long campaignId,
      long runId,
      String state,
      int priority,
      double ratePerSecond,
      boolean bulk,
      int partitions,
      long planned,
      long sent,
      long failed,
      long unknown,
      long skipped,
      Instant startedAt,
      @Nullable Instant finishedAt) {

    SendJob job() {
      return new SendJob(campaignId, runId, priority, ratePerSecond);
    }
  }

  /** Counts what a statement changed, to add to the run's counters. */
  record Counts(long sent, long failed, long unknown, long skipped) {
    static final Counts NONE = new Counts(0, 0, 0, 0);

    static Counts of(List<String> states) {
      long sent = 0, failed = 0, unknown = 0, skipped = 0;
      for (String state : states) {
        switch (state) {
          case "sent" -> sent++;
          case "failed" -> failed++;
          case "unknown" -> unknown++;
          case "skipped" -> skipped++;
          default -> {}
        }
      }
      return new Counts(sent, failed, unknown, skipped);
    }
  }

  /** Creates the run in PLANNING (bulk) or RUNNING (triggered); false when it exists already. */
  boolean createRun(SendJob job, boolean bulk) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("""
            INSERT INTO send_run (campaign_id, run_id, state, priority, rate_per_sec, bulk)
            VALUES (:campaign, :run, :state, :priority, :rate, :bulk)
            ON CONFLICT DO NOTHING""")
            .bind("campaign", job.campaignId())
            .bind("run", job.runId())
            .bind("state", bulk ? PLANNING : SendState.RUNNING.name())
            .bind("priority", job.priority())
            .bind("rate", job.ratePerSecond())
            .bind("bulk", bulk)
            .execute()
        == 1);
  }

  Optional<Run> run(long campaignId, long runId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT campaign_id, run_id, state, priority, rate_per_sec, bulk, partitions, planned,
                   sent, failed, unknown, skipped, started_at, finished_at
            FROM send_run WHERE campaign_id = :campaign AND run_id = :run""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .map((rows, context) -> new Run(
            rows.getLong(1),
            rows.getLong(2),
            rows.getString(3),
            rows.getInt(4),
            rows.getDouble(5),
            rows.getBoolean(6),
            rows.getInt(7),
            rows.getLong(8),
            rows.getLong(9),
            rows.getLong(10),
            rows.getLong(11),
            rows.getLong(12),
            rows.getTimestamp(13).toInstant(),
            rows.getTimestamp(14) == null ? null : rows.getTimestamp(14).toInstant()))
        .findOne());
  }

  /** The state alone, for workers checking between recipients. */
  Optional<String> state(long campaignId, long runId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT state FROM send_run WHERE campaign_id = :campaign AND run_id = :run")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .mapTo(String.class)
        .findOne());
  }

  /**
   * Writes one batch of recipients with their send-time cohorts (null: none); a subscriber already in
   * the run is left as it is.
   */
  int plan(
      long campaignId,
      long runId,
      List<String> subscriberIds,
      List<Integer> partitions,
      List<@Nullable Integer> cohorts) {
    return jdbi.withHandle(handle -> handle
        .createUpdate("""
            INSERT INTO send_recipient (campaign_id, run_id, subscriber_id, part, cohort)
            SELECT :campaign, :run, id, part, cohort
            FROM unnest(:ids, :parts, :cohorts) AS planned (id, part, cohort)
            ON CONFLICT DO NOTHING""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bindArray("ids", String.class, subscriberIds)
        .bindArray("parts", Integer.class, partitions)
        .bindArray("cohorts", Integer.class, cohorts)
        .execute());
  }

  /**
   * Creates the run's partitions (0..size-1, each due at its entry of {@code notBefore}, null: at
   * once), unreleased, unless they exist.
   */
  void partitions(long campaignId, long runId, List<@Nullable Instant> notBefore) {
    var parts = new ArrayList<Integer>(notBefore.size());
    // epoch milliseconds: the driver binds no array of timestamps
    var times = new ArrayList<@Nullable Long>(notBefore.size());
    for (int part = 0; part < notBefore.size(); part++) {
      parts.add(part);
      Instant at = notBefore.get(part);
      times.add(at == null ? null : at.toEpochMilli());
    }
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO send_partition (campaign_id, run_id, part, not_before, released)
            SELECT :campaign, :run, part, to_timestamp(at / 1000.0), false
            FROM unnest(:parts, :times) AS planned (part, at)
            ON CONFLICT DO NOTHING""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bindArray("parts", Integer.class, parts)
        .bindArray("times", Long.class, times)
        .execute());
  }

  /**
   * Releases the run's partitions due at {@code now} that were not released yet; returns them, for
   * the caller to queue. One caller wins each partition (the update is conditional), so a partition is
   * queued once however many nodes sweep.
   */
  List<Integer> release(long campaignId, long runId, Instant now) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            UPDATE send_partition SET released = true
            WHERE campaign_id = :campaign AND run_id = :run AND NOT released
              AND (not_before IS NULL OR not_before <= :now)
            RETURNING part""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("now", now)
        .mapTo(Integer.class)
        .list()
        .stream()
        .sorted()
        .toList());
  }

  /** The run's recipients by the time their partition is due (at once: the run's start). */
  List<Map.Entry<Instant, Long>> plannedByTime(long campaignId, long runId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT coalesce(p.not_before, r.started_at) AS at, count(*)
            FROM send_recipient s
            JOIN send_partition p ON p.campaign_id = s.campaign_id AND p.run_id = s.run_id
              AND p.part = s.part
            JOIN send_run r ON r.campaign_id = s.campaign_id AND r.run_id = s.run_id
            WHERE s.campaign_id = :campaign AND s.run_id = :run
            GROUP BY 1 ORDER BY 1""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .map((rows, context) -> Map.entry(rows.getTimestamp(1).toInstant(), rows.getLong(2)))
        .list());
  }

  /**
   * Refreshes the planner's statistics of the ledger: right after a large plan they still describe a
   * near-empty table, and every chunk claim would scan the run until autovacuum caught up.
   */
  void analyze() {
    jdbi.useHandle(handle -> handle.execute("ANALYZE send_recipient"));
  }

  /**
   * Ends planning: the run counts what its ledger holds and workers may take its partitions; the run
   * is told handed over to sending, with how many emails it plans, in the same transaction.
   */
  void running(long campaignId, long runId, int partitions) {
    jdbi.useTransaction(handle -> handle
        .createQuery("""
            UPDATE send_run SET state = 'RUNNING', partitions = :partitions,
              planned = (SELECT count(*) FROM send_recipient
                         WHERE campaign_id = :campaign AND run_id = :run)
            WHERE campaign_id = :campaign AND run_id = :run AND state = 'PLANNING'
            RETURNING planned""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("partitions", partitions)
        .mapTo(Long.class)
        .findOne()
        .ifPresent(planned -> outbox.append(
            handle, List.of(new HandedOver(campaignId, runId, planned, Instant.now())))));
  }

  /**
   * Moves the partition to {@code fence} (a newer lease than any before) and settles what an earlier
   * lease left claimed: a recipient it never handed over to the transport is planned again (nobody
   * can have its email), one it handed over may have it, so it becomes unknown and is never sent
   * blindly again. Empty when the partition is finished or already under a newer fence; otherwise the
   * recipients that became unknown.
   */
  Optional<List<String>> takePartition(long campaignId, long runId, int part, long fence) {
    return transaction(handle -> {
      int moved = handle
          .createUpdate("""
              UPDATE send_partition SET fence = :fence
              WHERE campaign_id = :campaign AND run_id = :run AND part = :part
                AND fence < :fence AND NOT finished""")
          .bind("campaign", campaignId)
          .bind("run", runId)
          .bind("part", part)
          .bind("fence", fence)
          .execute();
      if (moved == 0) return Optional.<List<String>>empty();
      List<String> orphans = handle
          .createQuery("""
              UPDATE send_recipient
              SET state = CASE state WHEN 'handed_over' THEN 'unknown' ELSE 'planned' END,
                  reason = CASE state WHEN 'handed_over'
                           THEN 'its worker lost the lease after handing it to the transport'
                           END,
                  updated_at = now()
              WHERE campaign_id = :campaign AND run_id = :run AND part = :part
                AND state IN ('sending', 'handed_over') AND fence < :fence
              RETURNING subscriber_id, state""")
          .bind("campaign", campaignId)
          .bind("run", runId)
          .bind("part", part)
          .bind("fence", fence)
          .map((rows, context) -> rows.getString(2).equals("unknown") ? rows.getString(1) : null)
          .stream()
          .filter(Objects::nonNull)
          .toList();
      addCounts(handle, campaignId, runId, new Counts(0, 0, orphans.size(), 0));
      return Optional.of(orphans);
    });
  }

  /**
   * Claims up to {@code limit} planned recipients of the partition for the lease {@code fence}.
   * Empty when the partition is done; null when the fence is no longer the partition's (another
   * worker took it over), so the caller stops.
   */
  @Nullable List<String> claim(long campaignId, long runId, int part, long fence, int limit) {
    // One statement, so one round trip while the slot's senders wait for their next chunk.
    // FOR SHARE: a takeover's fence change waits for this claim, then settles what it claimed.
    // FOR UPDATE: a row a cancel is skipping is read again once the cancel commits, so it is no
    // longer planned and stays skipped; without it the sub-select's stale row would be claimed.
    // MATERIALIZED: the pick runs once; a sub-select re-scanned by the update would lock past the
    // rows the update already changed and claim more than the limit.
    // The partition's row comes back with no recipient when nothing was claimed, and not at all
    // when the partition is gone.
    List<ClaimedRow> rows = jdbi.withHandle(handle -> handle
        .createQuery("""
            WITH current AS MATERIALIZED (
              SELECT fence FROM send_partition
              WHERE campaign_id = :campaign AND run_id = :run AND part = :part FOR SHARE),
            picked AS MATERIALIZED (
              SELECT subscriber_id FROM send_recipient
              WHERE campaign_id = :campaign AND run_id = :run AND part = :part
                AND state = 'planned' AND (SELECT fence FROM current) = :fence
              ORDER BY subscriber_id LIMIT :limit FOR UPDATE),
            claimed AS (
              UPDATE send_recipient r SET state = 'sending', fence = :fence, updated_at = now()
                FROM picked
               WHERE r.campaign_id = :campaign AND r.run_id = :run
                 AND r.subscriber_id = picked.subscriber_id
              RETURNING r.subscriber_id)
            SELECT current.fence, claimed.subscriber_id
            FROM current LEFT JOIN claimed ON true""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("part", part)
        .bind("fence", fence)
        .bind("limit", limit)
        .map((r, context) -> new ClaimedRow(r.getLong(1), r.getString(2)))
        .list());
    if (rows.isEmpty() || rows.getFirst().fence() != fence) return null;
    var claimed = new ArrayList<String>(rows.size());
    for (ClaimedRow row : rows) if (row.subscriberId() != null) claimed.add(row.subscriberId());
    return claimed;
  }

  /** The partition's fence beside one recipient claimed (none when nothing was). */
  private record ClaimedRow(long fence, @Nullable String subscriberId) {}

  /**
   * Claims one triggered recipient under a fence of its own; empty when it is past claiming (sent,
   * handed over or settled). A trigger delivered again while its first claim is still sending claims
   * anew, and the first claim's handover then fails, so only one of them sends.
   */
  Optional<Long> claimTriggered(long campaignId, long runId, String subscriberId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            UPDATE send_recipient SET state = 'sending', fence = fence + 1, updated_at = now()
            WHERE campaign_id = :campaign AND run_id = :run AND subscriber_id = :subscriber
              AND state IN ('planned', 'sending')
            RETURNING fence""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("subscriber", subscriberId)
        .mapTo(Long.class)
        .findOne());
  }

  /**
   * Settles a triggered recipient handed over longer than {@code quiet} ago and never marked (its
   * worker died after the handover): it becomes unknown. True when it did.
   */
  boolean settleTriggered(long campaignId, long runId, String subscriberId, Duration quiet) {
    return transaction(handle -> {
      int settled = handle
          .createUpdate("""
              UPDATE send_recipient
              SET state = 'unknown', updated_at = now(),
                  reason = 'its worker stopped after handing it to the transport'
              WHERE campaign_id = :campaign AND run_id = :run AND subscriber_id = :subscriber
                AND state = 'handed_over'
                AND updated_at < now() - make_interval(secs => :quiet)""")
          .bind("campaign", campaignId)
          .bind("run", runId)
          .bind("subscriber", subscriberId)
          .bind("quiet", quiet.toMillis() / 1000.0)
          .execute();
      addCounts(handle, campaignId, runId, new Counts(0, 0, settled, 0));
      return settled == 1;
    });
  }

  /**
   * A recipient claimed under a fence, as the handover names it, with what its composer asked to keep
   * beside the handover ({@link Composer.Composed.Email#handoverNote()}).
   */
  record Claim(
      long campaignId,
      long runId,
      String subscriberId,
      long fence,
      @Nullable String note) {
    Claim(long campaignId, long runId, String subscriberId, long fence) {
      this(campaignId, runId, subscriberId, fence, null);
    }
  }

  /**
   * Records that the transport is about to pass the point after which these claimed recipients may
   * have their email; returns the claims still held (the others were taken over and must not send).
   * A claim handed over before (its first attempt was refused after the data) stays handed over.
   */
  Set<Claim> handOver(Set<Claim> claims) {
    var campaigns = new ArrayList<Long>(claims.size());
    var runs = new ArrayList<Long>(claims.size());
    var ids = new ArrayList<String>(claims.size());
    var fences = new ArrayList<Long>(claims.size());
    var notes = new ArrayList<@Nullable String>(claims.size());
    for (Claim claim : claims) {
      campaigns.add(claim.campaignId());
      runs.add(claim.runId());
      ids.add(claim.subscriberId());
      fences.add(claim.fence());
      notes.add(claim.note());
    }
    // the note is written by the handover's own statement: a recipient who may have the email
    // always has it beside them
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            UPDATE send_recipient AS r SET state = 'handed_over', updated_at = now(),
              handover_note = coalesce(c.note, r.handover_note)
            FROM unnest(:campaigns, :runs, :ids, :fences, :notes)
              AS c (campaign, run, id, fence, note)
            WHERE r.campaign_id = c.campaign AND r.run_id = c.run AND r.subscriber_id = c.id
              AND r.fence = c.fence AND r.state IN ('sending', 'handed_over')
            RETURNING r.campaign_id, r.run_id, r.subscriber_id, r.fence, c.note""")
        .bindArray("campaigns", Long.class, campaigns)
        .bindArray("runs", Long.class, runs)
        .bindArray("ids", String.class, ids)
        .bindArray("fences", Long.class, fences)
        .bindArray("notes", String.class, notes)
        .map((rows, context) -> new Claim(
            rows.getLong(1),
            rows.getLong(2),
            rows.getString(3),
            rows.getLong(4),
            rows.getString(5)))
        // a list, not collectIntoSet: that resolves its collector's generic types on every call
        .list()
        .stream()
        .collect(Collectors.toSet()));
  }

  /**
   * Records the replies of recipients claimed under {@code fence}; a row that lease no longer holds
   * (settled by a takeover) is left alone. Returns the outcomes that were recorded.
   */
  List<Outcome> mark(long campaignId, long runId, long fence, List<Outcome> outcomes) {
    if (outcomes.isEmpty()) return List.of();
    var ids = new ArrayList<String>(outcomes.size());
    var marks = new ArrayList<String>(outcomes.size());
    var reasons = new ArrayList<String>(outcomes.size());
    for (Outcome outcome : outcomes) {
      ids.add(outcome.subscriberId());
      marks.add(outcome.mark().name());
      reasons.add(outcome.reason());
    }
    // one statement: the rows and the run's counters change together, in one round trip
    List<String> recorded = jdbi.withHandle(handle -> handle
        .createQuery("""
            WITH recorded AS (
              UPDATE send_recipient AS r
              SET state = u.state, reason = NULLIF(u.reason, ''), updated_at = now()
              FROM unnest(:ids, :states, :reasons) AS u (id, state, reason)
              WHERE r.campaign_id = :campaign AND r.run_id = :run AND r.subscriber_id = u.id
                AND r.state IN ('sending', 'handed_over') AND r.fence = :fence
              RETURNING r.subscriber_id, r.state),
            counted AS (
              UPDATE send_run SET
                sent = sent + (SELECT count(*) FROM recorded WHERE state = 'sent'),
                failed = failed + (SELECT count(*) FROM recorded WHERE state = 'failed'),
                unknown = unknown + (SELECT count(*) FROM recorded WHERE state = 'unknown'),
                skipped = skipped + (SELECT count(*) FROM recorded WHERE state = 'skipped'),
                progressed_at = now()
              WHERE campaign_id = :campaign AND run_id = :run
                AND EXISTS (SELECT 1 FROM recorded WHERE state <> 'planned'))
            SELECT subscriber_id FROM recorded""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("fence", fence)
        .bindArray("ids", String.class, ids)
        .bindArray("states", String.class, marks)
        .bindArray("reasons", String.class, reasons)
        .mapTo(String.class)
        .list());
    var kept = new HashSet<>(recorded);
    return outcomes.stream().filter(o -> kept.contains(o.subscriberId())).toList();
  }

  /** Records that the partition is done under {@code fence}. */
  void partitionFinished(long campaignId, long runId, int part, long fence) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            UPDATE send_partition SET finished = true
            WHERE campaign_id = :campaign AND run_id = :run AND part = :part AND fence = :fence""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("part", part)
        .bind("fence", fence)
        .execute());
  }

  /**
   * Completes a running bulk run whose every recipient has an outcome; empty when it is not complete
   * (or not running).
   */
  Optional<String> complete(long campaignId, long runId) {
    return jdbi.inTransaction(handle -> {
      Optional<Map.Entry<String, RunCompleted>> done = handle
          .createQuery("""
              UPDATE send_run
              SET state = CASE WHEN failed + unknown > 0 THEN 'COMPLETED_WITH_ERRORS'
                               ELSE 'COMPLETED' END,
                  finished_at = now()
              WHERE campaign_id = :campaign AND run_id = :run AND bulk AND state = 'RUNNING'
                AND sent + failed + unknown + skipped = planned
              RETURNING state, sent, failed + unknown AS failed, finished_at""")
          .bind("campaign", campaignId)
          .bind("run", runId)
          .map((rows, context) -> Map.entry(
              rows.getString("state"),
              new RunCompleted(
                  campaignId,
                  runId,
                  rows.getLong("sent"),
                  rows.getLong("failed"),
                  rows.getTimestamp("finished_at").toInstant())))
          .findOne();
      done.ifPresent(run -> outbox.append(handle, List.of(run.getValue())));
      return done.map(Map.Entry::getKey);
    });
  }

  /** Changes the state from one of {@code from} to {@code to}; false when it was in none of them. */
  boolean changeState(long campaignId, long runId, List<String> from, String to) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("""
            UPDATE send_run SET state = :to,
              finished_at = CASE WHEN :to = 'CANCELLED' THEN now() ELSE finished_at END
            WHERE campaign_id = :campaign AND run_id = :run AND state = ANY(:from)""")
            .bind("campaign", campaignId)
            .bind("run", runId)
            .bind("to", to)
            .bindArray("from", String.class, from)
            .execute()
        == 1);
  }

  /** Skips up to {@code limit} planned recipients of a cancelled run; returns their ids. */
  List<String> skipPlanned(long campaignId, long runId, int limit, String reason) {
    return transaction(handle -> {
      List<String> skipped = handle
          .createQuery("""
              UPDATE send_recipient SET state = 'skipped', reason = :reason, updated_at = now()
              WHERE campaign_id = :campaign AND run_id = :run AND subscriber_id IN (
                SELECT subscriber_id FROM send_recipient
                WHERE campaign_id = :campaign AND run_id = :run AND state = 'planned'
                LIMIT :limit FOR UPDATE SKIP LOCKED)
              RETURNING subscriber_id""")
          .bind("campaign", campaignId)
          .bind("run", runId)
          .bind("limit", limit)
          .bind("reason", reason)
          .mapTo(String.class)
          .list();
      addCounts(handle, campaignId, runId, new Counts(0, 0, 0, skipped.size()));
      return skipped;
    });
  }

  List<Integer> unfinishedPartitions(long campaignId, long runId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT part FROM send_partition
            WHERE campaign_id = :campaign AND run_id = :run AND NOT finished AND released
            ORDER BY part""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .mapTo(Integer.class)
        .list());
  }

  /**
   * True for one caller when the running run's counters have not moved for {@code stall}: that caller
   * queues its unfinished partitions again, and the clock restarts, so other nodes do not repeat it.
   */
  boolean takeStall(long campaignId, long runId, Duration stall) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("""
            UPDATE send_run SET progressed_at = now()
            WHERE campaign_id = :campaign AND run_id = :run AND state = 'RUNNING'
              AND progressed_at < now() - make_interval(secs => :stall)""")
            .bind("campaign", campaignId)
            .bind("run", runId)
            .bind("stall", stall.toMillis() / 1000.0)
            .execute()
        == 1);
  }

  /** Bulk runs being sent now, for the sweeper. */
  List<SendJob> runningBulkRuns() {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT campaign_id, run_id, priority, rate_per_sec FROM send_run
            WHERE state = 'RUNNING' AND bulk""")
        .map((rows, context) ->
            new SendJob(rows.getLong(1), rows.getLong(2), rows.getInt(3), rows.getDouble(4)))
        .list());
  }

  /** Adds a triggered recipient to its run; false when the subscriber is in the run already. */
  boolean addTriggered(long campaignId, long runId, String subscriberId) {
    return transaction(handle -> {
      int added = handle
          .createUpdate("""
              INSERT INTO send_recipient (campaign_id, run_id, subscriber_id, part)
              VALUES (:campaign, :run, :subscriber, -1) ON CONFLICT DO NOTHING""")
          .bind("campaign", campaignId)
          .bind("run", runId)
          .bind("subscriber", subscriberId)
          .execute();
      if (added == 1) {
        handle
            .createUpdate("UPDATE send_run SET planned = planned + 1"
                + " WHERE campaign_id = :campaign AND run_id = :run")
            .bind("campaign", campaignId)
            .bind("run", runId)
            .execute();
      }
      return added == 1;
    });
  }

  /**
   * The notes their handovers left beside these recipients (those with one): what a takeover that
   * settled them as unknown hands back to the composer.
   */
  Map<String, String> handoverNotes(long campaignId, long runId, List<String> subscriberIds) {
    if (subscriberIds.isEmpty()) return Map.of();
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT subscriber_id, handover_note FROM send_recipient
            WHERE campaign_id = :campaign AND run_id = :run AND subscriber_id = ANY(:ids)
              AND handover_note IS NOT NULL""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bindArray("ids", String.class, subscriberIds)
        .map((rows, context) -> Map.entry(rows.getString(1), rows.getString(2)))
        .list()
        .stream()
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
  }

  /** The recipient's state, for tests and operators. */
  Optional<String> recipientState(long campaignId, long runId, String subscriberId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT state FROM send_recipient
            WHERE campaign_id = :campaign AND run_id = :run AND subscriber_id = :subscriber""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("subscriber", subscriberId)
        .mapTo(String.class)
        .findOne());
  }

  /**
   * A transaction whose session the server ends if the client goes quiet inside it: a worker frozen
   * mid-transaction (GC, SIGSTOP) would otherwise hold the run's counter row and stop every other
   * worker of the run.
   */
  private <T> T transaction(HandleCallback<T, RuntimeException> work) {
    return jdbi.inTransaction(handle -> {
      handle.execute("SET LOCAL idle_in_transaction_session_timeout = '5s'");
      return work.withHandle(handle);
    });
  }

  private static void addCounts(Handle handle, long campaignId, long runId, Counts counts) {
    if (counts.equals(Counts.NONE)) return;
    handle
        .createUpdate("""
            UPDATE send_run SET sent = sent + :sent, failed = failed + :failed,
              unknown = unknown + :unknown, skipped = skipped + :skipped, progressed_at = now()
            WHERE campaign_id = :campaign AND run_id = :run""")
        .bind("campaign", campaignId)
        .bind("run", runId)
        .bind("sent", counts.sent())
        .bind("failed", counts.failed())
        .bind("unknown", counts.unknown())
        .bind("skipped", counts.skipped())
        .execute();
  }
}
