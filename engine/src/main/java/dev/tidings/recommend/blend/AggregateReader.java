package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.KeyPart;
import java.time.LocalDate;
import java.util.List;

/**
 * The two reads of the activity aggregates the recommender makes ({@link AggregateStore}'s, same
 * meaning), as a port so that the algorithms are tested on aggregates held in memory.
 */
public interface AggregateReader {
  /** Aggregates whose hash key starts with {@code hashPrefix}, periods between the bounds as text. */
  List<AggregateStore.Entry> read(String hashPrefix, String fromRange, String toRange, int limit);

  /** Aggregates under {@code key}'s segments, periods between the bounds as text. */
  List<AggregateStore.Entry> under(AggregateKey key, String fromRange, String toRange, int limit);

  /**
   * Aggregates under {@code key}'s segments, with day periods from {@code firstDay} on only (months,
   * years and all time whatever their period).
   */
  default List<AggregateStore.Entry> under(AggregateKey key, LocalDate firstDay, int limit) {
    String first = firstDay.toString();
    return under(key, "", "", limit).stream()
        .filter(entry -> !(entry.key().bucket().orElse(null) instanceof KeyPart.Day)
            || entry.key().rangeKey().compareTo(first) >= 0)
        .toList();
  }

  static AggregateReader of(AggregateStore store) {
    return new AggregateReader() {
      @Override
      public List<AggregateStore.Entry> read(
          String hashPrefix, String fromRange, String toRange, int limit) {
        return store.read(hashPrefix, fromRange, toRange, limit);
      }

      @Override
      public List<AggregateStore.Entry> under(
          AggregateKey key, String fromRange, String toRange, int limit) {
        return store.under(key, fromRange, toRange, limit);
      }

      @Override
      public List<AggregateStore.Entry> under(AggregateKey key, LocalDate firstDay, int limit) {
        return store.under(key, firstDay, limit);
      }
    };
  }
}
