package dev.tidings.opentime;

import dev.tidings.message.MessageId;
import java.sql.Array;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/** The kept slot lists, table {@code message_slots}. */
final class SlotTable {
  private final Jdbi jdbi;

  SlotTable(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /**
   * Keeps every list whose email has none yet, in one statement; the first list of an email wins,
   * except that a list chosen under the coordinator's lock replaces a fallback's (provisional) one.
   */
  void keepAll(List<ChosenSlots> batch) {
    if (batch.isEmpty()) return;
    List<ChosenSlots> lists = onePerEmail(batch);
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO message_slots
              (message_id, subscriber_id, campaign_id, product_ids, chosen_at, provisional)
            SELECT m, s, c, string_to_array(p, ','), to_timestamp(t / 1000.0), f
              FROM unnest(:messages, :subscribers, :campaigns, :products, :times, :provisional)
                AS x(m, s, c, p, t, f)
            ON CONFLICT (message_id) DO UPDATE
              SET product_ids = excluded.product_ids, chosen_at = excluded.chosen_at,
                  provisional = false
              WHERE message_slots.provisional AND NOT excluded.provisional
            """)
        .bindArray(
            "messages",
            String.class,
            lists.stream().map(l -> l.message().text()).toList())
        .bindArray(
            "subscribers",
            String.class,
            lists.stream().map(l -> l.message().subscriberId()).toList())
        .bindArray(
            "campaigns",
            Long.class,
            lists.stream().map(l -> l.message().campaignId()).toList())
        .bindArray(
            "products",
            String.class,
            lists.stream().map(l -> String.join(",", l.productIds())).toList())
        .bindArray(
            "times",
            Long.class,
            lists.stream().map(l -> l.chosenAt().toEpochMilli()).toList())
        .bindArray(
            "provisional",
            Boolean.class,
            lists.stream().map(l -> l.how() == ChosenSlots.How.FALLBACK).toList())
        .execute());
  }

  /**
   * One statement may not touch a row twice: of one email's lists in a batch, the first chosen under
   * the lock is kept, else the first fallback.
   */
  private static List<ChosenSlots> onePerEmail(List<ChosenSlots> batch) {
    Map<MessageId, ChosenSlots> chosen = new LinkedHashMap<>();
    for (ChosenSlots list : batch) {
      chosen.merge(
          list.message(),
          list,
          (first, next) ->
              first.how() == ChosenSlots.How.FALLBACK && next.how() != ChosenSlots.How.FALLBACK
                  ? next
                  : first);
    }
    return List.copyOf(chosen.values());
  }

  /**
   * Keeps a fallback's list unless the email has one already, and answers the list the email keeps now:
   * while the coordinator cannot arbitrate, the first list in the table is the one every node serves.
   * The answer is {@link ChosenSlots.How#FALLBACK} while it is provisional, {@link
   * ChosenSlots.How#STORED} once a winner's list replaced it.
   */
  ChosenSlots keepFallback(ChosenSlots fallback) {
    Optional<ChosenSlots> inserted = jdbi.withHandle(handle -> handle
        .createQuery("""
            INSERT INTO message_slots
              (message_id, subscriber_id, campaign_id, product_ids, chosen_at, provisional)
            VALUES (:message, :subscriber, :campaign, :products, :at, true)
            ON CONFLICT (message_id) DO NOTHING
            RETURNING message_id
            """)
        .bind("message", fallback.message().text())
        .bind("subscriber", fallback.message().subscriberId())
        .bind("campaign", fallback.message().campaignId())
        .bindArray("products", String.class, fallback.productIds())
        .bind("at", Timestamp.from(fallback.chosenAt()))
        .mapTo(String.class)
        .findOne()
        .map(id -> fallback));
    if (inserted.isPresent()) return fallback;
    return jdbi.withHandle(handle -> handle
            .createQuery("""
                SELECT product_ids, chosen_at, provisional FROM message_slots
                 WHERE message_id = :id
                """)
            .bind("id", fallback.message().text())
            .map((rs, ctx) -> new ChosenSlots(
                fallback.message(),
                Arrays.asList((String[]) rs.getArray("product_ids").getArray()),
                rs.getTimestamp("chosen_at").toInstant(),
                rs.getBoolean("provisional") ? ChosenSlots.How.FALLBACK : ChosenSlots.How.STORED))
            .findOne())
        .orElse(fallback); // gone meanwhile (retention): what was computed is all there is
  }

  Optional<ChosenSlots> find(MessageId message) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT product_ids, chosen_at FROM message_slots WHERE message_id = :id")
        .bind("id", message.text())
        .map((rs, ctx) -> new ChosenSlots(
            message,
            Arrays.asList((String[]) rs.getArray("product_ids").getArray()),
            rs.getTimestamp("chosen_at").toInstant(),
            ChosenSlots.How.STORED))
        .findOne());
  }

  /**
   * What choosing an email's list needs from the table: the list kept for it, if any; otherwise what
   * the subscriber's last emails showed.
   */
  record Past(Optional<ChosenSlots> kept, Set<String> recentlyShown) {}

  /**
   * The {@link Past} of many emails in one statement: the emails whose lists are chosen at the same
   * moment. The email being chosen is left out of its subscriber's recent ones: its own list, kept
   * meanwhile by another node, must not exclude itself.
   */
  Map<MessageId, Past> pasts(Set<MessageId> messages, int emails) {
    if (messages.isEmpty()) return Map.of();
    Map<String, MessageId> byText = new HashMap<>();
    List<String> texts = new ArrayList<>(messages.size());
    List<String> subscribers = new ArrayList<>(messages.size());
    for (MessageId message : messages) {
      byText.put(message.text(), message);
      texts.add(message.text());
      subscribers.add(message.subscriberId());
    }
    Map<MessageId, Past> found = new HashMap<>();
    jdbi.useHandle(handle -> handle
        .createQuery("""
            SELECT x.m, kept.product_ids AS kept_ids, kept.chosen_at,
                   CASE WHEN kept.message_id IS NULL THEN ARRAY(
                     SELECT DISTINCT unnest(recent.product_ids) FROM (
                       SELECT product_ids FROM message_slots
                        WHERE subscriber_id = x.s AND message_id <> x.m
                        ORDER BY chosen_at DESC LIMIT :emails) recent) END AS shown
              FROM unnest(:messages, :subscribers) AS x(m, s)
              LEFT JOIN message_slots kept ON kept.message_id = x.m
            """)
        .bindArray("messages", String.class, texts)
        .bindArray("subscribers", String.class, subscribers)
        .bind("emails", emails)
        .map((rs, ctx) -> {
          MessageId message = Objects.requireNonNull(byText.get(rs.getString("m")));
          Array kept = rs.getArray("kept_ids");
          if (kept != null)
            return Map.entry(
                message,
                new Past(
                    Optional.of(new ChosenSlots(
                        message,
                        Arrays.asList((String[]) kept.getArray()),
                        rs.getTimestamp("chosen_at").toInstant(),
                        ChosenSlots.How.STORED)),
                    Set.of()));
          return Map.entry(
              message, new Past(Optional.empty(), new LinkedHashSet<>(Arrays.asList((String[])
                  rs.getArray("shown").getArray()))));
        })
        .forEach(row -> found.put(row.getKey(), row.getValue())));
    return found;
  }

  /**
   * Products the subscriber's last {@code emails} emails other than {@code current} showed. The email
   * being chosen is left out: its own list, kept meanwhile by another node, must not exclude itself.
   */
  Set<String> recentlyShown(MessageId current, int emails) {
    return jdbi.withHandle(handle -> new LinkedHashSet<>(handle
        .createQuery("""
            SELECT DISTINCT unnest(product_ids) FROM (
              SELECT product_ids FROM message_slots
               WHERE subscriber_id = :subscriber AND message_id <> :current
               ORDER BY chosen_at DESC LIMIT :emails) recent
            """)
        .bind("subscriber", current.subscriberId())
        .bind("current", current.text())
        .bind("emails", emails)
        .mapTo(String.class)
        .list()));
  }
}
