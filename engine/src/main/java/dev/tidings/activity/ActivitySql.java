package dev.tidings.activity;

import dev.tidings.storage.PublishedSql;

/**
 * The activity tables as predicates on a subscriber row aliased {@code s}, for statements other
 * capabilities compose (a campaign's segment); values are bound parameters under the caller's prefix.
 */
public final class ActivitySql {
  private ActivitySql() {}

  /** The subscriber did {@code type} (an event type's wire name) on the item {@code :<p>item}. */
  public static String didOnItem(EventType type, String p) {
    return PublishedSql.by(
        ActivitySql.class,
        "EXISTS (SELECT 1 FROM activity_events e WHERE e.user_id = s.id AND e.type = '"
            + type.wire() + "' AND e.item_id = :" + p + "item)");
  }

  /** The subscriber did {@code type} at or after {@code :<p>since}. */
  public static String didSince(EventType type, String p) {
    return PublishedSql.by(
        ActivitySql.class,
        "EXISTS (SELECT 1 FROM activity_events e WHERE e.user_id = s.id AND e.type = '"
            + type.wire() + "' AND e.occurred_at >= :" + p + "since)");
  }
}
