package dev.tidings.optimize;

import dev.tidings.events.EventListener.ReceivedEvent;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Opened;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jdbi.v3.core.Handle;

/**
 * A person's first open or click of an experiment's email counts for its variant, once
 * ({@link ExperimentStepsListener} hears each step of a message from the funnel's events, once). Counts go to one of {@link #SHARDS} rows per variant, so concurrent batches of one variant do
 * not queue on one row; readers sum the shards.
 */
public final class ExperimentSteps {
  static final int SHARDS = 8;

  private ExperimentSteps() {}

  /** The events, among {@code events}, of emails sent in an experiment, in order. */
  static List<ReceivedEvent> ofExperiments(Handle handle, List<ReceivedEvent> events) {
    if (events.isEmpty()) return events;
    List<String> messages = new ArrayList<>(events.size());
    for (ReceivedEvent received : events) messages.add(messageOf(received));
    Set<String> sent = new HashSet<>(handle
        .createQuery("SELECT message_id FROM experiment_sends WHERE message_id = ANY(:messages)")
        .bindArray("messages", String.class, messages)
        .mapTo(String.class)
        .list());
    if (sent.isEmpty()) return List.of();
    return events.stream()
        .filter(received -> sent.contains(messageOf(received)))
        .toList();
  }

  private static String messageOf(ReceivedEvent received) {
    return switch (received.event()) {
      case Opened open -> open.messageId();
      case Clicked click -> click.messageId();
      default -> "";
    };
  }

  /** Counts the people's first opens and clicks among these messages for their variants. */
  static void count(Handle handle, List<String> openedMessages, List<String> clickedMessages) {
    List<String> messages = new ArrayList<>(openedMessages);
    messages.addAll(clickedMessages);
    if (messages.isEmpty()) return;
    List<Boolean> opened = new ArrayList<>(messages.size());
    openedMessages.forEach(message -> opened.add(true));
    clickedMessages.forEach(message -> opened.add(false));
    handle
        .createUpdate("""
            INSERT INTO experiment_counts AS c (campaign_id, variant, shard, human_opened, human_clicked)
            SELECT e.campaign_id, e.variant, :shard,
                   count(*) FILTER (WHERE n.opened), count(*) FILTER (WHERE NOT n.opened)
              FROM unnest(:messages, :opened) AS n (message_id, opened)
              JOIN experiment_sends e ON e.message_id = n.message_id
             GROUP BY e.campaign_id, e.variant
             ORDER BY e.campaign_id, e.variant
            ON CONFLICT (campaign_id, variant, shard) DO UPDATE
              SET human_opened = c.human_opened + excluded.human_opened,
                  human_clicked = c.human_clicked + excluded.human_clicked""")
        .bind("shard", ThreadLocalRandom.current().nextInt(SHARDS))
        .bindArray("messages", String.class, messages)
        .bindArray("opened", Boolean.class, opened)
        .execute();
  }
}
