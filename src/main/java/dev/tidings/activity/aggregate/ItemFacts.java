package dev.tidings.activity.aggregate;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** What the catalog says about an item that aggregations group by. */
public record ItemFacts(Optional<String> brand, Optional<String> category) {
  public static final ItemFacts UNKNOWN = new ItemFacts(Optional.empty(), Optional.empty());

  /** The facts of the items the catalog knows among {@code itemIds}, in one query. */
  public static Map<String, ItemFacts> of(Handle handle, Collection<String> itemIds) {
    var facts = new HashMap<String, ItemFacts>();
    handle
        .createQuery("SELECT id, brand, category FROM products WHERE id = ANY(:ids)")
        .bindArray("ids", String.class, itemIds.stream().distinct().toList())
        .map((rows, context) -> Map.entry(
            rows.getString(1),
            new ItemFacts(
                Optional.ofNullable(rows.getString(2)), Optional.ofNullable(rows.getString(3)))))
        .forEach(entry -> facts.put(entry.getKey(), entry.getValue()));
    return facts;
  }
}
