package dev.tidings.opentime;

import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Read-only: which products emails showed, from the kept slot lists, for the dashboard (a
 * subscriber's last emails, one email of a campaign to preview). Writing stays with the chooser.
 */
public final class ShownProducts {
  private final Jdbi jdbi;

  public ShownProducts(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** One email's products in slot order, and when they were chosen. */
  public record Shown(
      String messageId, long campaignId, List<String> productIds, Instant chosenAt) {
    public Shown {
      productIds = List.copyOf(productIds);
    }
  }

  /** The subscriber's last {@code emails} emails whose slots were chosen, newest first. */
  public List<Shown> ofSubscriber(String subscriberId, int emails) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT message_id, campaign_id, product_ids, chosen_at FROM message_slots"
            + " WHERE subscriber_id = :s ORDER BY chosen_at DESC LIMIT :n")
        .bind("s", subscriberId)
        .bind("n", emails)
        .map((rs, ctx) -> new Shown(
            rs.getString("message_id"),
            rs.getLong("campaign_id"),
            Arrays.asList((String[]) rs.getArray("product_ids").getArray()),
            rs.getTimestamp("chosen_at").toInstant()))
        .list());
  }

  /** The products each of these emails showed, by message id; emails not opened yet are left out. */
  public Map<String, Shown> ofMessages(Collection<String> messageIds) {
    if (messageIds.isEmpty()) return Map.of();
    var found = new HashMap<String, Shown>();
    jdbi.useHandle(handle -> handle
        .createQuery("SELECT message_id, campaign_id, product_ids, chosen_at FROM message_slots"
            + " WHERE message_id = ANY(:ids)")
        .bindArray("ids", String.class, messageIds)
        .map((rs, ctx) -> new Shown(
            rs.getString("message_id"),
            rs.getLong("campaign_id"),
            Arrays.asList((String[]) rs.getArray("product_ids").getArray()),
            rs.getTimestamp("chosen_at").toInstant()))
        .forEach(shown -> found.put(shown.messageId(), shown)));
    return found;
  }

  /**
   * Any one email of the campaign whose slots were chosen, the one the dashboard previews. No order:
   * without an index on the campaign, the scan stops at the first row it meets instead of reading
   * every email of the campaign.
   */
  public Optional<Shown> firstOfCampaign(long campaignId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT message_id, campaign_id, product_ids, chosen_at FROM message_slots"
            + " WHERE campaign_id = :c LIMIT 1")
        .bind("c", campaignId)
        .map((rs, ctx) -> new Shown(
            rs.getString("message_id"),
            rs.getLong("campaign_id"),
            Arrays.asList((String[]) rs.getArray("product_ids").getArray()),
            rs.getTimestamp("chosen_at").toInstant()))
        .findOne());
  }
}
