package dev.tidings.recommend.blend;

import dev.tidings.catalog.CatalogService;
import java.util.List;

/** The whole catalogue as the recommender sees it, read in the background. */
@FunctionalInterface
public interface CatalogFacts {
  List<ProductFacts> all();

  /** From the catalogue's own service. */
  static CatalogFacts of(CatalogService catalog) {
    return () -> catalog.allTraits().stream()
        .map(product -> new ProductFacts(
            product.id(),
            product.brand().orElse(null),
            product.category().orElse(null),
            product.available(),
            product.createdAt()))
        .toList();
  }
}
