package dev.tidings.sendtime;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * People's opens per subscriber and hour of the week ({@code send_time_open_hours}, V34). Written once
 * per email a person opened, batched by whoever records the opens (in their transaction); read a page of
 * subscribers at a time by primary key, so planning a million recipients is a thousand short queries.
 * Thread-safe.
 */
public final class OpenHours {
  private final Jdbi jdbi;

  public OpenHours(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** A person's first open of one email. */
  public record Open(String subscriberId, Instant at) {}

  /** Adds the opens in one statement inside {@code handle}'s transaction. */
  static void record(Handle handle, List<Open> opens) {
    if (opens.isEmpty()) return;
    // one row per (subscriber, hour): an upsert may not touch the same row twice in one statement
    Map<String, Integer> added = new HashMap<>();
    for (Open open : opens)
      added.merge(open.subscriberId() + "\u0000" + HourOfWeek.of(open.at()), 1, Integer::sum);
    var ids = new ArrayList<String>(added.size());
    var hours = new ArrayList<Integer>(added.size());
    var counts = new ArrayList<Integer>(added.size());
    added.forEach((key, count) -> {
      int split = key.indexOf('\u0000');
      ids.add(key.substring(0, split));
      hours.add(Integer.parseInt(key.substring(split + 1)));
      counts.add(count);
    });
    handle
        .createUpdate("""
            INSERT INTO send_time_open_hours (subscriber_id, hour_of_week, opens)
            SELECT id, hour, n FROM unnest(:ids, :hours, :counts) AS o (id, hour, n)
            ORDER BY id, hour
            ON CONFLICT (subscriber_id, hour_of_week)
            DO UPDATE SET opens = send_time_open_hours.opens + excluded.opens""")
        .bindArray("ids", String.class, ids)
        .bindArray("hours", Integer.class, hours)
        .bindArray("counts", Integer.class, counts)
        .execute();
  }

  public void record(List<Open> opens) {
    jdbi.useTransaction(handle -> record(handle, opens));
  }

  /** Each of these subscribers' opens by hour of the week; a subscriber with none is absent. */
  public Map<String, int[]> counts(List<String> subscriberIds) {
    Map<String, int[]> out = HashMap.newHashMap(subscriberIds.size());
    if (subscriberIds.isEmpty()) return out;
    jdbi.useHandle(handle -> handle
        .createQuery("""
            SELECT subscriber_id, hour_of_week, opens FROM send_time_open_hours
            WHERE subscriber_id = ANY(:ids)""")
        .bindArray("ids", String.class, subscriberIds)
        .map((rows, context) -> {
          out.computeIfAbsent(rows.getString(1), id -> new int[HourOfWeek.HOURS])[rows.getInt(2)] +=
              rows.getInt(3);
          return 0;
        })
        .forEach(ignored -> {}));
    return out;
  }

  /** Everyone's opens by hour of the week: the audience's shape the planner shrinks towards. */
  public long[] everyone() {
    long[] out = new long[HourOfWeek.HOURS];
    jdbi.useHandle(handle -> handle
        .createQuery(
            "SELECT hour_of_week, sum(opens) FROM send_time_open_hours GROUP BY hour_of_week")
        .map((rows, context) -> {
          out[rows.getInt(1)] = rows.getLong(2);
          return 0;
        })
        .forEach(ignored -> {}));
    return out;
  }
}
