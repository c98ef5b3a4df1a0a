package dev.tidings.activity.aggregate;

import java.util.Optional;

/** What the catalog says about an item that aggregations group by. */
public record ItemFacts(Optional<String> brand, Optional<String> category) {
  public static final ItemFacts UNKNOWN = new ItemFacts(Optional.empty(), Optional.empty());
}
