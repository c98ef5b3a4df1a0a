package dev.tidings.catalog;

import dev.tidings.storage.PublishedSql;

/**
 * Reads of the catalogue that another capability composes into its own statements (the counting of
 * activity groups events by their product's brand and category in its own transaction), so it never
 * names the catalogue's table itself and never hands over its transaction.
 */
public final class CatalogQueries {
  private CatalogQueries() {}

  /**
   * The traits of the products the catalogue knows among {@code :ids} (a text array), one row each:
   * columns {@code id}, {@code brand} and {@code category} (null when unknown).
   */
  public static String traitsOfIds() {
    return PublishedSql.by(
        CatalogQueries.class, "SELECT id, brand, category FROM products WHERE id = ANY(:ids)");
  }
}
