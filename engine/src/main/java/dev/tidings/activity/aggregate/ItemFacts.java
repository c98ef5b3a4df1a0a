package dev.tidings.activity.aggregate;

import dev.tidings.catalog.CatalogQueries;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** What the catalog says about an item that aggregations group by. */
public record ItemFacts(Optional<String> brand, Optional<String> category) {
  public static final ItemFacts UNKNOWN = new ItemFacts(Optional.empty(), Optional.empty());

  /** The facts of the items the catalog knows among {@code itemIds}, in one query the catalog wrote. */
  public static Map<String, ItemFacts> of(Handle handle, Collection<String> itemIds) {
    var facts = new HashMap<String, ItemFacts>();
    handle
        .createQuery(CatalogQueries.traitsOfIds())
        .bindArray("ids", String.class, itemIds.stream().distinct().toList())
        .map((rs, ctx) -> Map.entry(
            rs.getString("id"),
            new ItemFacts(
                Optional.ofNullable(rs.getString("brand")),
                Optional.ofNullable(rs.getString("category")))))
        .forEach(entry -> facts.put(entry.getKey(), entry.getValue()));
    return facts;
  }
}
