package dev.tidings.activity;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Reads of stored activity for the capabilities that learn from it (recommendations): one user's recent
 * events, and how often each item was acted on lately. Only the types that say something about taste are
 * read for them: views, clicks, adds to cart and purchases. An operator sees a user's latest events of
 * every type ({@link #latestEvents}).
 */
public final class ActivityHistory {
  private final Jdbi jdbi;

  public ActivityHistory(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** One past event of a user: what they did to which item, and when. */
  public record PastEvent(String itemId, EventType type, Instant occurredAt) {}

  /** How many events of one type an item got in a window. */
  public record ItemCount(String itemId, EventType type, long events) {}

  /**
   * The user's view, click, add-to-cart and purchase events since {@code since}, newest first, at most
   * {@code limit}; one probe of the {@code (user_id, occurred_at)} index. A statement that runs longer than
   * {@code timeout} is cancelled by PostgreSQL and fails, so a slow database costs the caller a bounded time.
   */
  public List<PastEvent> recentEvents(String userId, Instant since, int limit, Duration timeout) {
    return jdbi.inTransaction(
        handle -> EventTable.recentOfUser(handle, userId, since, limit, timeout));
  }

  /**
   * {@link #recentEvents} of many users in one statement (a lookup of each user's index range): what
   * the recommender reads for the emails being chosen at the same moment. Users without events are
   * left out of the answer.
   */
  public Map<String, List<PastEvent>> recentEventsOfUsers(
      Collection<String> userIds, Instant since, int limit, Duration timeout) {
    if (userIds.isEmpty()) return Map.of();
    return jdbi.inTransaction(
        handle -> EventTable.recentOfUsers(handle, userIds, since, limit, timeout));
  }

  /**
   * The user's last {@code limit} events of every type, newest first (what an operator looks at, not
   * what the recommender learns from); one range of the {@code (user_id, occurred_at)} index, cancelled
   * by PostgreSQL after {@code timeout}.
   */
  public List<PastEvent> latestEvents(String userId, int limit, Duration timeout) {
    return jdbi.inTransaction(handle -> EventTable.latestOfUser(handle, userId, limit, timeout));
  }

  /**
   * The users whose latest event of {@code type} happened in [{@code from}, {@code to}), after
   * {@code after} in id order, at most {@code limit}: who last bought a given day (a win-back).
   */
  public List<String> lastDoneWithin(
      EventType type, Instant from, Instant to, Optional<String> after, int limit) {
    return jdbi.withHandle(
        handle -> EventTable.lastDoneWithin(handle, type, from, to, after, limit));
  }

  /** Events per item and type since {@code since}: a scan of the window, meant for a periodic background job. */
  public List<ItemCount> countsSince(Instant since) {
    return jdbi.withHandle(handle -> EventTable.countsSince(handle, since));
  }
}
