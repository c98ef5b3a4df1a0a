package dev.tidings.catalog;

import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Products new to the catalogue, available and of a brand: a trigger on the products table queues each
 * in the storing transaction, whichever way it came (API or bulk import). Another capability claims
 * them inside its own transaction, so what it does with them and the claim commit together: a product
 * is handed out once however many nodes claim.
 */
public final class ProductAdditions {
  /** A claimed product, as the trigger copied it. */
  public record Added(String productId, String title, String brand, String url, String imageUrl) {}

  private ProductAdditions() {}

  /** Claims up to {@code limit} waiting products; others claiming at once take others. */
  public static List<Added> claim(Handle handle, int limit) {
    return handle
        .createQuery("""
            DELETE FROM product_additions WHERE product_id IN (
              SELECT product_id FROM product_additions ORDER BY product_id
               LIMIT :limit FOR UPDATE SKIP LOCKED)
            RETURNING product_id, title, brand, landing_url, image_url""")
        .bind("limit", limit)
        .map((rows, context) -> new Added(
            rows.getString("product_id"),
            rows.getString("title"),
            rows.getString("brand"),
            rows.getString("landing_url"),
            rows.getString("image_url")))
        .list();
  }
}
