package dev.tidings.delivery;

import dev.tidings.opentime.Engagement;
import dev.tidings.opentime.HumanEngagements;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * The funnel's verdict on engagements for whoever else counts them: {@link MachineTraffic} over the
 * engagement as a receipt and the message's send time, read from {@code message_status} once per
 * batch. A message whose send is not recorded yet is judged by its user agent alone, as the funnel
 * judges it.
 */
public final class EngagementVerdicts implements HumanEngagements {
  private final Jdbi jdbi;

  public EngagementVerdicts(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public List<Engagement> madeByPeople(List<Engagement> engagements) {
    if (engagements.isEmpty()) return List.of();
    Map<String, Optional<Instant>> sent =
        sentAt(engagements.stream().map(Engagement::messageId).distinct().toList());
    return engagements.stream()
        .filter(engagement -> MachineTraffic.human(
            EngagementReceipts.receipt(engagement),
            sent.getOrDefault(engagement.messageId(), Optional.empty())))
        .toList();
  }

  private Map<String, Optional<Instant>> sentAt(List<String> messages) {
    Map<String, Optional<Instant>> found = HashMap.newHashMap(messages.size());
    jdbi.useHandle(handle -> handle
        .createQuery("SELECT message_id, sent_at FROM message_status WHERE message_id = ANY(:ids)")
        .bindArray("ids", String.class, messages)
        .map((rows, context) -> {
          var at = rows.getTimestamp("sent_at");
          return Map.entry(
              rows.getString("message_id"),
              at == null ? Optional.<Instant>empty() : Optional.of(at.toInstant()));
        })
        .forEach(row -> found.put(row.getKey(), row.getValue())));
    return found;
  }
}
