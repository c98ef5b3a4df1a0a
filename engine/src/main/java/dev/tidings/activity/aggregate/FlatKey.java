package dev.tidings.activity.aggregate;

import org.jspecify.annotations.Nullable;

/**
 * An aggregate key as the store keeps it: the hash key written out once, and the period (none for a
 * key without one). What a counting round sums by: hashing and comparing one string is cheaper than
 * the typed segments of an {@link AggregateKey}, and the store writes the text as it is.
 */
record FlatKey(String hashKey, KeyPart.@Nullable Bucket period) {
  static FlatKey of(AggregateKey key) {
    return new FlatKey(key.hashKey(), key.bucket().orElse(null));
  }

  /** The period's text, empty when the key has none: the range key of {@link AggregateKey}. */
  String rangeKey() {
    return period == null ? "" : period.text();
  }

  /** The typed key, read back from the text; {@link AggregateKey#parse} checks it. */
  AggregateKey toKey() {
    return AggregateKey.parse(period == null ? hashKey : hashKey + ":" + period.format());
  }
}
