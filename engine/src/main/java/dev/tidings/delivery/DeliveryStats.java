package dev.tidings.delivery;

import dev.tidings.opentime.ShownSql;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jdbi.v3.core.Jdbi;

/** Reads what {@link ReceiptStore} wrote: a campaign's figures, one message's history. */
public final class DeliveryStats {
  private final Jdbi jdbi;

  /** The timed cohort and the hold-out of a per-subscriber campaign ({@link SendTimeOutcomes}). */
  public List<SendTimeOutcomes.Cohort> sendTimeCohorts(long campaignId) {
    return new SendTimeOutcomes(jdbi).of(campaignId);
  }

  public DeliveryStats(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  public CampaignStats campaign(long campaignId, Instant minutesSince) {
    return jdbi.withHandle(handle -> {
      Map<FunnelStep, Long> funnel = new EnumMap<>(FunnelStep.class);
      handle
          .createQuery("SELECT step, sum(count) AS n FROM campaign_funnel"
              + " WHERE campaign_id = :id GROUP BY step")
          .bind("id", campaignId)
          .map((rs, ctx) -> Map.entry(rs.getInt("step"), rs.getLong("n")))
          .forEach(row ->
              FunnelStep.ofCode(row.getKey()).ifPresent(step -> funnel.put(step, row.getValue())));
      Map<DeliveryStatus, Long> current = new EnumMap<>(DeliveryStatus.class);
      handle
          .createQuery("SELECT status, count(*) AS n FROM message_status"
              + " WHERE campaign_id = :id GROUP BY status")
          .bind("id", campaignId)
          .map((rs, ctx) -> Map.entry(rs.getInt("status"), rs.getLong("n")))
          .forEach(row -> FunnelStep.ofCode(row.getKey())
              .flatMap(FunnelStep::status)
              .ifPresent(status -> current.put(status, row.getValue())));
      Map<Integer, Long> slots = new TreeMap<>();
      handle
          .createQuery("SELECT slot, count(*) AS n FROM slot_clicks"
              + " WHERE campaign_id = :id GROUP BY slot")
          .bind("id", campaignId)
          .map((rs, ctx) -> Map.entry(rs.getInt("slot"), rs.getLong("n")))
          .forEach(row -> slots.put(row.getKey(), row.getValue()));
      Map<Instant, Map<FunnelStep, Long>> byMinute = new TreeMap<>();
      handle
          .createQuery("SELECT minute, step, sum(count) AS n FROM campaign_funnel_minutes"
              + " WHERE campaign_id = :id AND minute >= :since GROUP BY minute, step")
          .bind("id", campaignId)
          .bind("since", minutesSince)
          .map((rs, ctx) -> new MinuteRow(
              rs.getTimestamp("minute").toInstant(), rs.getInt("step"), rs.getLong("n")))
          .forEach(row -> FunnelStep.ofCode(row.step())
              .ifPresent(step -> byMinute
                  .computeIfAbsent(row.minute(), m -> new EnumMap<>(FunnelStep.class))
                  .put(step, row.count())));
      List<CampaignStats.Minute> minutes = new ArrayList<>();
      byMinute.forEach((minute, steps) -> minutes.add(new CampaignStats.Minute(minute, steps)));
      return new CampaignStats(campaignId, funnel, current, rates(funnel), slots, minutes);
    });
  }

  /**
   * The headline of each of {@code campaignIds}, read in one statement for them all (a campaign no
   * receipt has reached has zeros).
   */
  public Map<Long, CampaignHeadline> headlines(Collection<Long> campaignIds) {
    if (campaignIds.isEmpty()) return Map.of();
    Map<Long, Map<FunnelStep, Long>> funnels = new HashMap<>();
    for (long id : campaignIds) funnels.put(id, new EnumMap<>(FunnelStep.class));
    jdbi.useHandle(handle -> handle
        .createQuery("SELECT campaign_id, step, sum(count) AS n FROM campaign_funnel"
            + " WHERE campaign_id = ANY(:ids) GROUP BY campaign_id, step")
        .bindArray("ids", Long.class, List.copyOf(funnels.keySet()))
        .map((rs, ctx) ->
            new FunnelRow(rs.getLong("campaign_id"), rs.getInt("step"), rs.getLong("n")))
        .forEach(row -> FunnelStep.ofCode(row.step())
            .ifPresent(step -> funnels
                .computeIfAbsent(row.campaign(), id -> new EnumMap<>(FunnelStep.class))
                .put(step, row.count()))));
    Map<Long, CampaignHeadline> headlines = new LinkedHashMap<>();
    for (long id : campaignIds)
      headlines.put(id, CampaignHeadline.of(id, funnels.getOrDefault(id, Map.of())));
    return headlines;
  }

  private record FunnelRow(long campaign, int step, long count) {}

  /**
   * Seed 02's headline KPIs (contact: sent of queued; delivery: delivered of sent) and the engagement
   * rates, each of the step it follows from; a rate over nothing is 0.
   */
  static Map<String, Double> rates(Map<FunnelStep, Long> funnel) {
    Map<String, Double> rates = new LinkedHashMap<>();
    rates.put("contact", ratio(funnel, FunnelStep.SENT, FunnelStep.QUEUED));
    rates.put("delivery", ratio(funnel, FunnelStep.DELIVERED, FunnelStep.SENT));
    rates.put("open", ratio(funnel, FunnelStep.OPENED, FunnelStep.DELIVERED));
    rates.put("humanOpen", ratio(funnel, FunnelStep.HUMAN_OPENED, FunnelStep.DELIVERED));
    rates.put("click", ratio(funnel, FunnelStep.CLICKED, FunnelStep.DELIVERED));
    rates.put("humanClick", ratio(funnel, FunnelStep.HUMAN_CLICKED, FunnelStep.DELIVERED));
    rates.put("clickToOpen", ratio(funnel, FunnelStep.CLICKED, FunnelStep.OPENED));
    rates.put("humanClickToOpen", ratio(funnel, FunnelStep.HUMAN_CLICKED, FunnelStep.HUMAN_OPENED));
    rates.put("bounce", ratio(funnel, FunnelStep.BOUNCED, FunnelStep.SENT));
    rates.put("complaint", ratio(funnel, FunnelStep.COMPLAINED, FunnelStep.DELIVERED));
    rates.put("unsubscribe", ratio(funnel, FunnelStep.UNSUBSCRIBED, FunnelStep.DELIVERED));
    return rates;
  }

  private static double ratio(Map<FunnelStep, Long> funnel, FunnelStep part, FunnelStep whole) {
    long of = funnel.getOrDefault(whole, 0L);
    return of == 0 ? 0 : (double) funnel.getOrDefault(part, 0L) / of;
  }

  /** One message's current status and the first time it reached each step. */
  public record MessageHistory(
      String messageId, DeliveryStatus status, Instant statusAt, List<Step> steps) {
    public record Step(FunnelStep step, Instant at, String source, Optional<String> reason) {}
  }

  public Optional<MessageHistory> message(String messageId) {
    return jdbi.withHandle(handle -> {
      var status = handle
          .createQuery("SELECT status, status_at FROM message_status WHERE message_id = :id")
          .bind("id", messageId)
          .map((rs, ctx) ->
              Map.entry(rs.getInt("status"), rs.getTimestamp("status_at").toInstant()))
          .findOne();
      if (status.isEmpty()) return Optional.<MessageHistory>empty();
      List<MessageHistory.Step> steps = new ArrayList<>();
      handle
          .createQuery("SELECT step, first_at, source, reason FROM message_steps"
              + " WHERE message_id = :id ORDER BY first_at, step")
          .bind("id", messageId)
          .map((rs, ctx) -> new StepRead(
              rs.getInt("step"),
              rs.getTimestamp("first_at").toInstant(),
              rs.getString("source"),
              Optional.ofNullable(rs.getString("reason"))))
          .forEach(row -> FunnelStep.ofCode(row.code())
              .ifPresent(step ->
                  steps.add(new MessageHistory.Step(step, row.at(), row.source(), row.reason()))));
      DeliveryStatus current = FunnelStep.ofCode(status.get().getKey())
          .flatMap(FunnelStep::status)
          .orElseThrow(() -> new IllegalStateException("unknown status code in message_status"));
      return Optional.of(new MessageHistory(messageId, current, status.get().getValue(), steps));
    });
  }

  /**
   * One email a subscriber was sent and what became of it: its current status and every funnel step
   * it reached (a person's open and click among them).
   *
   * @param sentAt empty until the send's outcome was recorded
   */
  public record SubscriberMessage(
      String messageId,
      long campaignId,
      Optional<Instant> sentAt,
      DeliveryStatus status,
      Instant statusAt,
      Set<FunnelStep> steps) {
    public SubscriberMessage {
      steps = steps.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(steps));
    }

    public boolean reached(FunnelStep step) {
      return steps.contains(step);
    }
  }

  /** An email that went to a subscriber: its message id and when it was sent. */
  public record Sent(String messageId, Instant at) {}

  /**
   * The emails of any campaign or journey sent to each of these subscribers since {@code since} (what
   * caps a reader's emails a day and a week), by subscriber; one range of each one's index.
   */
  public Map<String, List<Sent>> sentSince(Collection<String> subscriberIds, Instant since) {
    if (subscriberIds.isEmpty()) return Map.of();
    Map<String, List<Sent>> sent = new HashMap<>();
    jdbi.useHandle(handle -> handle
        .createQuery("""
            SELECT subscriber_id, message_id, sent_at FROM message_status
             WHERE subscriber_id = ANY(:ids) AND sent_at >= :since""")
        .bindArray("ids", String.class, List.copyOf(subscriberIds))
        .bind("since", Timestamp.from(since))
        .map((rs, ctx) -> Map.entry(
            rs.getString(1), new Sent(rs.getString(2), rs.getTimestamp(3).toInstant())))
        .forEach(row ->
            sent.computeIfAbsent(row.getKey(), id -> new ArrayList<>()).add(row.getValue())));
    return sent;
  }

  /**
   * The subscriber's last {@code limit} emails, newest sent first (those whose outcome is not known
   * yet first of all), each with the steps it reached: a range of the subscriber's index, then their
   * steps in one statement.
   */
  public List<SubscriberMessage> ofSubscriber(String subscriberId, int limit) {
    return jdbi.withHandle(handle -> {
      record Row(String id, long campaign, Optional<Instant> sent, int status, Instant at) {}
      List<Row> rows = handle
          .createQuery("SELECT message_id, campaign_id, sent_at, status, status_at"
              + " FROM message_status WHERE subscriber_id = :s"
              + " ORDER BY sent_at DESC NULLS LAST LIMIT :n")
          .bind("s", subscriberId)
          .bind("n", limit)
          .map((rs, ctx) -> new Row(
              rs.getString("message_id"),
              rs.getLong("campaign_id"),
              Optional.ofNullable(rs.getTimestamp("sent_at")).map(Timestamp::toInstant),
              rs.getInt("status"),
              rs.getTimestamp("status_at").toInstant()))
          .list();
      if (rows.isEmpty()) return List.<SubscriberMessage>of();
      Map<String, Set<FunnelStep>> steps = new HashMap<>();
      handle
          .createQuery("SELECT message_id, step FROM message_steps WHERE message_id = ANY(:ids)")
          .bindArray("ids", String.class, rows.stream().map(Row::id).toList())
          .map((rs, ctx) -> Map.entry(rs.getString("message_id"), rs.getInt("step")))
          .forEach(row -> FunnelStep.ofCode(row.getValue())
              .ifPresent(step -> steps
                  .computeIfAbsent(row.getKey(), id -> EnumSet.noneOf(FunnelStep.class))
                  .add(step)));
      List<SubscriberMessage> messages = new ArrayList<>(rows.size());
      for (Row row : rows) {
        var status = FunnelStep.ofCode(row.status()).flatMap(FunnelStep::status);
        if (status.isEmpty()) continue; // a code this version does not know: not ours to show
        messages.add(new SubscriberMessage(
            row.id(),
            row.campaign(),
            row.sent(),
            status.get(),
            row.at(),
            steps.getOrDefault(row.id(), Set.of())));
      }
      return messages;
    });
  }

  /** A product and the human clicks its slots got in one campaign. */
  public record ProductClicks(String productId, long clicks) {}

  /**
   * The products most clicked by people in a campaign: each human slot click resolved to the product
   * the email's kept list showed in that slot (lists are 0-based slots, Postgres arrays 1-based).
   */
  public List<ProductClicks> topClickedProducts(long campaignId, int limit) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT s.product_ids[c.slot + 1] AS product, count(*) AS n"
            + " FROM slot_clicks c JOIN " + ShownSql.shownProducts("s")
            + " ON s.message_id = c.message_id"
            + " WHERE c.campaign_id = :id AND s.product_ids[c.slot + 1] IS NOT NULL"
            + " GROUP BY 1 ORDER BY n DESC, product LIMIT :limit")
        .bind("id", campaignId)
        .bind("limit", limit)
        .map((rs, ctx) -> new ProductClicks(rs.getString("product"), rs.getLong("n")))
        .list());
  }

  /** Funnel steps reached since {@code since} across every campaign: the node's throughput. */
  public Map<FunnelStep, Long> stepsSince(Instant since) {
    Map<FunnelStep, Long> steps = new EnumMap<>(FunnelStep.class);
    jdbi.useHandle(handle -> handle
        .createQuery("SELECT step, sum(count) AS n FROM campaign_funnel_minutes"
            + " WHERE minute >= :since GROUP BY step")
        .bind("since", since)
        .map((rs, ctx) -> Map.entry(rs.getInt("step"), rs.getLong("n")))
        .forEach(row ->
            FunnelStep.ofCode(row.getKey()).ifPresent(step -> steps.put(step, row.getValue()))));
    return steps;
  }

  private record MinuteRow(Instant minute, int step, long count) {}

  private record StepRead(int code, Instant at, String source, Optional<String> reason) {}
}
