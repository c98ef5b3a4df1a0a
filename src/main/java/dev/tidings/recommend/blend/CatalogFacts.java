package dev.tidings.recommend.blend;

import java.util.List;
import org.jdbi.v3.core.Jdbi;

/** The whole catalogue as the recommender sees it, read in the background. */
@FunctionalInterface
public interface CatalogFacts {
  List<ProductFacts> all();

  /** From the {@code products} table. */
  static CatalogFacts of(Jdbi jdbi) {
    return () -> jdbi.withHandle(handle -> handle
        .createQuery("SELECT id, brand, category, available, created_at FROM products")
        .setFetchSize(10_000)
        .map((rows, context) -> new ProductFacts(
            rows.getString(1),
            rows.getString(2),
            rows.getString(3),
            rows.getBoolean(4),
            rows.getTimestamp(5).toInstant()))
        .list());
  }
}
