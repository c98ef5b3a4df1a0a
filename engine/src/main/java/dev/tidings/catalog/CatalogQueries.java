package dev.tidings.catalog;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Reads of the catalogue that another capability makes inside its own transaction (the counting of
 * activity groups events by their product's brand and category in the statement's transaction), so it
 * never names the catalogue's table itself.
 */
public final class CatalogQueries {
  private CatalogQueries() {}

  /** The traits of the products the catalogue knows among {@code ids}, in one query. */
  public static Map<String, ProductTraits> traitsOf(Handle handle, Collection<String> ids) {
    var traits = new HashMap<String, ProductTraits>();
    handle
        .createQuery(ProductTable.TRAITS + " WHERE id = ANY(:ids)")
        .bindArray("ids", String.class, ids.stream().distinct().toList())
        .map(ProductTable::traitsRow)
        .forEach(product -> traits.put(product.id(), product));
    return traits;
  }
}
