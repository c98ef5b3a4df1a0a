package dev.tidings.delivery;

import dev.tidings.Json;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.delivery.FunnelEvent;
import dev.tidings.message.MessageId;
import dev.tidings.storage.AdvisoryLock;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Applies receipts to PostgreSQL, a batch in one transaction of set-based statements and no lock taken
 * up front (seed 02's move, done exactly):
 *
 * <ol>
 *   <li>send records (the sender's SMTP outcomes) make their messages known; receipts of messages not
 *       known yet are parked, and those parked for messages that just became known join the batch;
 *   <li>each receipt becomes its funnel steps (its status, the statuses it implies, the human step),
 *       inserted once per (message, step): only the rows that were new count, so a receipt that arrives
 *       twice, or a DELIVERED after a CLICKED, changes no count;
 *   <li>the new rows' counts are added to a shard of the campaign's counters, chosen per transaction,
 *       so that concurrent consumers do not wait on one row;
 *   <li>a message's current status moves only to a higher priority ({@code WHERE status < new});
 *   <li>each step new to a message is told as an event (FunnelEvents), in the same transaction: a
 *       bounce, complaint or unsubscribe is how the audience comes to suppress the address.
 * </ol>
 *
 * Rows are written in key order so that two consumers' transactions take row locks in the same order.
 */
public final class ReceiptStore {
  private static final int SHARDS = 16;
  /** The first key of the advisory locks on messages (the second is the id's hash). */
  private static final AdvisoryLock LOCK_SPACE = AdvisoryLock.RECEIPT_MESSAGE;
  /** Times travel as epoch milliseconds in {@code t}. */
  private static final String TIME_T = "to_timestamp(t / 1000.0)";

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final EventOutbox outbox;
  private final ReceiptMetrics metrics;

  /** Telling each new step's event, counting in {@code metrics}. */
  public ReceiptStore(Jdbi jdbi, InstantSource clock, MeterRegistry metrics) {
    this(jdbi, clock, EventOutbox.ON, metrics);
  }

  /**
   * @param outbox where each batch's new steps are told, in its transaction ({@link FunnelEvents})
   * @param metrics where the receipts are counted ({@link ReceiptMetrics})
   */
  public ReceiptStore(Jdbi jdbi, InstantSource clock, EventOutbox outbox, MeterRegistry metrics) {
    this.jdbi = jdbi;
    this.clock = clock;
    this.outbox = outbox;
    this.metrics = new ReceiptMetrics(metrics);
  }

  /** What one batch did, for metrics and tests. */
  public record Applied(int receipts, int newSteps, int parked, int unparked, int undecodable) {}

  /**
   * A provider event that maps to no status, with the provider's id of it when it has one: an
   * event is counted once per id, however often the provider delivers it.
   */
  public record Unknown(
      ReceiptSource source, String eventType, String rawEvent, Optional<String> eventId) {
    public Unknown {
      Objects.requireNonNull(eventId, "eventId");
    }

    public Unknown(ReceiptSource source, String eventType, String rawEvent) {
      this(source, eventType, rawEvent, Optional.empty());
    }
  }

  /** How long an unknown event's id is remembered: SendGrid retries a request for up to 72 hours. */
  static final Duration UNKNOWN_IDS_KEPT = Duration.ofDays(4);

  public Applied apply(List<Receipt> receipts, List<Unknown> unknown) {
    Applied applied = jdbi.inTransaction(handle -> apply(handle, receipts, unknown));
    metrics.applied(receipts, unknown.size(), applied);
    return applied;
  }

  private Applied apply(Handle handle, List<Receipt> receipts, List<Unknown> unknown) {
    Instant now = clock.instant();
    recordUnknown(handle, unknown, now);
    Map<String, MessageId> ids = new HashMap<>();
    List<Receipt> readable = new ArrayList<>(receipts.size());
    int undecodable = 0;
    for (Receipt receipt : receipts) {
      Optional<MessageId> id = MessageId.parse(receipt.messageId());
      if (id.isEmpty()) {
        undecodable++;
        continue;
      }
      // a test send's email is counted in no funnel: what its provider reports changes nothing
      if (!id.get().counted()) continue;
      ids.put(receipt.messageId(), id.get());
      readable.add(receipt);
    }
    // A receipt that finds its message unknown is parked, and a send record unparks what waits for
    // its message. Both decisions are taken under the message's lock, so that a receipt parked
    // while its send record is applied by another consumer is seen by it, never left behind.
    Map<String, Integer> current = known(handle, ids.keySet());
    Set<String> known = new HashSet<>(current.keySet());
    Set<String> undecided = new TreeSet<>();
    for (Receipt receipt : readable)
      if (receipt.source() == ReceiptSource.SMTP || !known.contains(receipt.messageId()))
        undecided.add(receipt.messageId());
    if (!undecided.isEmpty()) {
      lockMessages(handle, undecided);
      known.addAll(known(handle, undecided).keySet());
    }
    Set<String> newlyKnown = makeKnown(handle, readable, ids);
    known.addAll(newlyKnown);
    List<Receipt> applicable = new ArrayList<>(readable.size());
    List<Receipt> toPark = new ArrayList<>();
    for (Receipt receipt : readable)
      (known.contains(receipt.messageId()) ? applicable : toPark).add(receipt);
    park(handle, toPark, now);
    List<Receipt> unparked = unpark(handle, newlyKnown);
    for (Receipt receipt : unparked) {
      MessageId.parse(receipt.messageId()).ifPresent(id -> ids.put(receipt.messageId(), id));
      applicable.add(receipt);
    }
    int newSteps = applyKnown(handle, applicable, ids, current, now);
    return new Applied(receipts.size(), newSteps, toPark.size(), unparked.size(), undecodable);
  }

  /** Messages whose send record is in the batch get their row; returns those that were new. */
  private static Set<String> makeKnown(
      Handle handle, List<Receipt> receipts, Map<String, MessageId> ids) {
    TreeMap<String, Receipt> sends = new TreeMap<>();
    for (Receipt receipt : receipts)
      if (receipt.source() == ReceiptSource.SMTP) sends.putIfAbsent(receipt.messageId(), receipt);
    if (sends.isEmpty()) return Set.of();
    List<String> messages = new ArrayList<>(sends.keySet());
    List<Long> campaigns = new ArrayList<>();
    List<String> subscribers = new ArrayList<>();
    List<Instant> times = new ArrayList<>();
    for (var send : sends.entrySet()) {
      MessageId id = ids.get(send.getKey());
      if (id == null) throw new IllegalStateException("unparsed message id " + send.getKey());
      campaigns.add(id.campaignId());
      subscribers.add(id.subscriberId());
      times.add(send.getValue().at());
    }
    return new HashSet<>(handle
        .createQuery("INSERT INTO message_status"
            + " (message_id, campaign_id, subscriber_id, status, status_at)"
            + " SELECT m, c, s, " + DeliveryStatus.QUEUED.priority() + ", " + TIME_T
            + " FROM unnest(:messages, :campaigns, :subscribers, :times) AS x(m, c, s, t)"
            + " ON CONFLICT (message_id) DO NOTHING RETURNING message_id")
        .bindArray("messages", String.class, messages)
        .bindArray("campaigns", Long.class, campaigns)
        .bindArray("subscribers", String.class, subscribers)
        .bindArray("times", Long.class, millis(times))
        .mapTo(String.class)
        .list());
  }

  /** Transaction-scoped advisory locks on the messages, taken in one order by every consumer. */
  private static void lockMessages(Handle handle, Set<String> sortedMessages) {
    handle
        .createQuery("SELECT count(pg_advisory_xact_lock(" + LOCK_SPACE.number() + ", hashtext(m)))"
            + " FROM (SELECT m FROM unnest(:ids) AS x(m) ORDER BY m) ordered")
        .bindArray("ids", String.class, List.copyOf(sortedMessages))
        .mapTo(Long.class)
        .one();
  }

  /** The messages among {@code messages} that are known, with their current status's priority. */
  private static Map<String, Integer> known(Handle handle, Set<String> messages) {
    Map<String, Integer> found = new HashMap<>();
    if (messages.isEmpty()) return found;
    handle
        .createQuery("SELECT message_id, status FROM message_status WHERE message_id = ANY(:ids)")
        .bindArray("ids", String.class, List.copyOf(messages))
        .map((rs, ctx) -> Map.entry(rs.getString("message_id"), rs.getInt("status")))
        .forEach(row -> found.put(row.getKey(), row.getValue()));
    return found;
  }

  private static void park(Handle handle, List<Receipt> receipts, Instant now) {
    if (receipts.isEmpty()) return;
    List<String> messages = new ArrayList<>(receipts.size());
    List<String> bodies = new ArrayList<>(receipts.size());
    for (Receipt receipt : receipts) {
      messages.add(receipt.messageId());
      bodies.add(Json.MAPPER.writeValueAsString(receipt));
    }
    handle
        .createUpdate("INSERT INTO parked_receipts (message_id, receipt, parked_at)"
            + " SELECT m, r::jsonb, :now FROM unnest(:messages, :bodies) AS x(m, r)")
        .bindArray("messages", String.class, messages)
        .bindArray("bodies", String.class, bodies)
        .bind("now", now)
        .execute();
  }

  private static List<Receipt> unpark(Handle handle, Set<String> messages) {
    if (messages.isEmpty()) return List.of();
    return handle
        .createQuery("DELETE FROM parked_receipts WHERE message_id = ANY(:ids) RETURNING receipt")
        .bindArray("ids", String.class, List.copyOf(messages))
        .map((rs, ctx) -> Json.MAPPER.readValue(rs.getString("receipt"), Receipt.class))
        .list();
  }

  private record StepRow(
      String message, FunnelStep step, long campaign, Instant at, Receipt from) {}

  /**
   * @param current the status each message had when the batch began: the steps it implies are in the
   *     table already (they were written with it), so a receipt repeating them inserts nothing
   */
  private int applyKnown(
      Handle handle,
      List<Receipt> receipts,
      Map<String, MessageId> ids,
      Map<String, Integer> current,
      Instant now) {
    if (receipts.isEmpty()) return 0;
    Map<String, Optional<Instant>> sentAt = sentAt(handle, receipts);
    // one row per (message, step): the earliest receipt that implies it
    Map<String, StepRow> rows = new TreeMap<>();
    Map<String, Receipt> highest = new TreeMap<>();
    List<Receipt> humanClicks = new ArrayList<>();
    for (Receipt receipt : receipts) {
      MessageId id = ids.get(receipt.messageId());
      if (id == null) continue;
      boolean human =
          MachineTraffic.human(receipt, sentAt.getOrDefault(receipt.messageId(), Optional.empty()));
      if (human && receipt.status() == DeliveryStatus.CLICKED && receipt.slot().isPresent())
        humanClicks.add(receipt);
      Set<FunnelStep> present = FunnelStep.impliedBy(current.get(receipt.messageId()));
      for (FunnelStep step : FunnelStep.implied(receipt.status(), human)) {
        if (present.contains(step)) continue;
        String key = receipt.messageId() + "\u0000" + (1000 + step.code());
        StepRow row =
            new StepRow(receipt.messageId(), step, id.campaignId(), receipt.at(), receipt);
        rows.merge(key, row, (a, b) -> a.at().isAfter(b.at()) ? b : a);
      }
      Integer before = current.get(receipt.messageId());
      if (before != null && before >= receipt.status().priority()) continue;
      highest.merge(
          receipt.messageId(),
          receipt,
          (a, b) -> b.status().priority() > a.status().priority() ? b : a);
    }
    List<StepRow> inserted = insertSteps(handle, rows.values());
    countNew(handle, inserted);
    tell(handle, inserted, ids);
    moveForward(handle, highest.values());
    recordSlotClicks(handle, humanClicks, ids);
    return inserted.size();
  }

  private static Map<String, Optional<Instant>> sentAt(Handle handle, List<Receipt> receipts) {
    List<String> engaged = receipts.stream()
        .filter(r -> r.status() == DeliveryStatus.CLICKED)
        .map(Receipt::messageId)
        .distinct()
        .toList();
    if (engaged.isEmpty()) return Map.of();
    Map<String, Optional<Instant>> found = new HashMap<>();
    handle
        .createQuery("SELECT message_id, sent_at FROM message_status WHERE message_id = ANY(:ids)")
        .bindArray("ids", String.class, engaged)
        .map((rs, ctx) -> {
          var sent = rs.getTimestamp("sent_at");
          return Map.entry(
              rs.getString("message_id"),
              sent == null ? Optional.<Instant>empty() : Optional.of(sent.toInstant()));
        })
        .forEach(row -> found.put(row.getKey(), row.getValue()));
    return found;
  }

  /** Inserts every row not there yet and answers the ones that were new. */
  private static List<StepRow> insertSteps(Handle handle, Collection<StepRow> rows) {
    List<String> messages = new ArrayList<>(rows.size());
    List<Integer> steps = new ArrayList<>(rows.size());
    List<Long> campaigns = new ArrayList<>(rows.size());
    List<Instant> times = new ArrayList<>(rows.size());
    List<String> sources = new ArrayList<>(rows.size());
    List<String> reasons = new ArrayList<>(rows.size());
    Map<String, StepRow> byKey = new HashMap<>();
    for (StepRow row : rows) {
      messages.add(row.message());
      steps.add(row.step().code());
      campaigns.add(row.campaign());
      times.add(row.at());
      sources.add(row.from().source().name());
      reasons.add(row.from().reason().orElse(""));
      byKey.put(row.message() + "\u0000" + row.step().code(), row);
    }
    return handle
        .createQuery("INSERT INTO message_steps"
            + " (message_id, step, campaign_id, first_at, source, reason)"
            + " SELECT m, st, c, " + TIME_T + ", src, NULLIF(r, '')"
            + " FROM unnest(:messages, :steps, :campaigns, :times, :sources, :reasons)"
            + " AS x(m, st, c, t, src, r) ORDER BY m, st"
            + " ON CONFLICT (message_id, step) DO NOTHING RETURNING message_id, step")
        .bindArray("messages", String.class, messages)
        .bindArray("steps", Integer.class, steps)
        .bindArray("campaigns", Long.class, campaigns)
        .bindArray("times", Long.class, millis(times))
        .bindArray("sources", String.class, sources)
        .bindArray("reasons", String.class, reasons)
        .map((rs, ctx) -> rs.getString("message_id") + "\u0000" + rs.getInt("step"))
        .list()
        .stream()
        .map(key -> Objects.requireNonNull(byKey.get(key), key))
        .toList();
  }

  /** Adds the new rows to one shard of each counter, in key order. */
  private static void countNew(Handle handle, List<StepRow> inserted) {
    if (inserted.isEmpty()) return;
    int shard = ThreadLocalRandom.current().nextInt(SHARDS);
    Map<List<Long>, Long> totals = new TreeMap<>(LIST_ORDER);
    Map<List<Long>, Long> minutes = new TreeMap<>(LIST_ORDER);
    for (StepRow row : inserted) {
      totals.merge(List.of(row.campaign(), (long) row.step().code()), 1L, Long::sum);
      long minute = row.at().truncatedTo(ChronoUnit.MINUTES).getEpochSecond();
      minutes.merge(List.of(row.campaign(), (long) row.step().code(), minute), 1L, Long::sum);
    }
    List<Long> campaigns = new ArrayList<>();
    List<Integer> steps = new ArrayList<>();
    List<Long> counts = new ArrayList<>();
    totals.forEach((key, count) -> {
      campaigns.add(key.get(0));
      steps.add(key.get(1).intValue());
      counts.add(count);
    });
    handle
        .createUpdate("INSERT INTO campaign_funnel (campaign_id, step, shard, count)"
            + " SELECT c, st, :shard, n FROM unnest(:campaigns, :steps, :counts) AS x(c, st, n)"
            + " ON CONFLICT (campaign_id, step, shard)"
            + " DO UPDATE SET count = campaign_funnel.count + excluded.count")
        .bind("shard", shard)
        .bindArray("campaigns", Long.class, campaigns)
        .bindArray("steps", Integer.class, steps)
        .bindArray("counts", Long.class, counts)
        .execute();
    List<Long> minuteCampaigns = new ArrayList<>();
    List<Integer> minuteSteps = new ArrayList<>();
    List<Instant> minuteTimes = new ArrayList<>();
    List<Long> minuteCounts = new ArrayList<>();
    minutes.forEach((key, count) -> {
      minuteCampaigns.add(key.get(0));
      minuteSteps.add(key.get(1).intValue());
      minuteTimes.add(Instant.ofEpochSecond(key.get(2)));
      minuteCounts.add(count);
    });
    handle
        .createUpdate(
            "INSERT INTO campaign_funnel_minutes (campaign_id, step, minute, shard, count)"
                + " SELECT c, st, to_timestamp(mi / 1000.0), :shard, n"
                + " FROM unnest(:campaigns, :steps, :minutes, :counts) AS x(c, st, mi, n)"
                + " ON CONFLICT (campaign_id, step, minute, shard)"
                + " DO UPDATE SET count = campaign_funnel_minutes.count + excluded.count")
        .bind("shard", shard)
        .bindArray("campaigns", Long.class, minuteCampaigns)
        .bindArray("steps", Integer.class, minuteSteps)
        .bindArray("minutes", Long.class, millis(minuteTimes))
        .bindArray("counts", Long.class, minuteCounts)
        .execute();
  }

  private static final Comparator<List<Long>> LIST_ORDER = (a, b) -> {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = Long.compare(a.get(i), b.get(i));
      if (c != 0) return c;
    }
    return Integer.compare(a.size(), b.size());
  };

  /** Each message's status moves to the batch's highest for it, only if that is higher. */
  private static void moveForward(Handle handle, Collection<Receipt> highest) {
    List<String> messages = new ArrayList<>(highest.size());
    List<Integer> statuses = new ArrayList<>(highest.size());
    List<Instant> times = new ArrayList<>(highest.size());
    for (Receipt receipt : highest) {
      messages.add(receipt.messageId());
      statuses.add(receipt.status().priority());
      times.add(receipt.at());
    }
    handle
        .createUpdate("UPDATE message_status ms SET status = x.st, status_at = x.ts,"
            + " sent_at = CASE WHEN ms.sent_at IS NULL AND x.st >= "
            + DeliveryStatus.SENT.priority()
            + " THEN x.ts ELSE ms.sent_at END"
            + " FROM (SELECT m, st, " + TIME_T
            + " AS ts FROM unnest(:messages, :statuses, :times) AS u(m, st, t)"
            + " ORDER BY m) x WHERE ms.message_id = x.m AND ms.status < x.st")
        .bindArray("messages", String.class, messages)
        .bindArray("statuses", Integer.class, statuses)
        .bindArray("times", Long.class, millis(times))
        .execute();
  }

  private static void recordSlotClicks(
      Handle handle, List<Receipt> clicks, Map<String, MessageId> ids) {
    if (clicks.isEmpty()) return;
    Map<String, Receipt> once = new TreeMap<>();
    for (Receipt click : clicks)
      once.merge(
          click.messageId() + "\u0000" + click.slot().orElse(-1),
          click,
          (a, b) -> a.at().isAfter(b.at()) ? b : a);
    List<String> messages = new ArrayList<>();
    List<Integer> slots = new ArrayList<>();
    List<Long> campaigns = new ArrayList<>();
    List<Instant> times = new ArrayList<>();
    for (Receipt click : once.values()) {
      MessageId id = ids.get(click.messageId());
      if (id == null) continue;
      messages.add(click.messageId());
      slots.add(click.slot().orElse(-1));
      campaigns.add(id.campaignId());
      times.add(click.at());
    }
    handle
        .createUpdate("INSERT INTO slot_clicks (message_id, slot, campaign_id, first_at)"
            + " SELECT m, sl, c, " + TIME_T + " FROM unnest(:messages, :slots, :campaigns, :times)"
            + " AS x(m, sl, c, t) ORDER BY m, sl ON CONFLICT (message_id, slot) DO NOTHING")
        .bindArray("messages", String.class, messages)
        .bindArray("slots", Integer.class, slots)
        .bindArray("campaigns", Long.class, campaigns)
        .bindArray("times", Long.class, millis(times))
        .execute();
  }

  private void tell(Handle handle, List<StepRow> inserted, Map<String, MessageId> ids) {
    List<FunnelEvent> events = new ArrayList<>();
    for (StepRow row : inserted) {
      MessageId id = ids.get(row.message());
      if (id != null)
        FunnelEvents.of(row.message(), id, row.step(), row.at()).ifPresent(events::add);
    }
    outbox.append(handle, events);
  }

  private static void recordUnknown(Handle handle, List<Unknown> unknown, Instant now) {
    for (Unknown event : unknown) {
      if (event.eventId().isPresent() && !firstTimeSeen(handle, event, now)) continue;
      handle
          .createUpdate(
              "INSERT INTO unknown_receipts (source, event_type, count, last_seen, last_event)"
                  + " VALUES (:source, :type, 1, :now, :raw)"
                  + " ON CONFLICT (source, event_type) DO UPDATE SET"
                  + " count = unknown_receipts.count + 1, last_seen = excluded.last_seen,"
                  + " last_event = excluded.last_event")
          .bind("source", event.source().name())
          .bind("type", ReceiptLimits.printable(event.eventType(), 200))
          .bind("now", now)
          .bind("raw", ReceiptLimits.printable(event.rawEvent(), 4_000))
          .execute();
    }
  }

  /**
   * Remembers the provider's id of an unknown event in {@code webhook_replays} (under the provider
   * {@code unknown:<SOURCE>}) in the batch's transaction: false when it was there, so a replayed or
   * retried request counts its events once.
   */
  private static boolean firstTimeSeen(Handle handle, Unknown event, Instant now) {
    return handle
            .createUpdate("INSERT INTO webhook_replays (provider, token, expires_at)"
                + " VALUES (:provider, :token, :expiresAt) ON CONFLICT DO NOTHING")
            .bind("provider", "unknown:" + event.source().name())
            // a provider's ids are unique per event; with the type,
            // a test vector that reuses one is still told apart
            .bind(
                "token",
                ReceiptLimits.printable(
                    event.eventType() + " " + event.eventId().orElseThrow(), 700))
            .bind("expiresAt", now.plus(UNKNOWN_IDS_KEPT))
            .execute()
        == 1;
  }

  /** Forgets the ids of unknown events remembered before {@code before}; returns how many. */
  public int expireUnknownEventIds(Instant before) {
    return jdbi.withHandle(handle -> handle
        .createUpdate("DELETE FROM webhook_replays WHERE provider LIKE 'unknown:%'"
            + " AND expires_at < :before")
        .bind("before", before)
        .execute());
  }

  private static List<Long> millis(List<Instant> times) {
    List<Long> millis = new ArrayList<>(times.size());
    for (Instant time : times) millis.add(time.toEpochMilli());
    return millis;
  }

  /** Drops parked receipts older than {@code before}; returns how many. */
  public int expireParked(Instant before) {
    return jdbi.withHandle(handle -> handle
        .createUpdate("DELETE FROM parked_receipts WHERE parked_at < :before")
        .bind("before", before)
        .execute());
  }
}
