package dev.tidings.catalog;

import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Products new to the catalogue, available and of a brand, and products of a brand back in stock: triggers
 * on the products table queue each in the storing transaction, whichever way it came (API, bulk import,
 * product feed), unless the transaction says that what it stores is not news ({@code tidings.news} off, see
 * {@link dev.tidings.imports.ImportOptions#news()}). Another capability claims
 * them inside its own transaction, so what it does with them and the claim commit together: a product
 * is handed out once however many nodes claim.
 */
public final class ProductAdditions {
  /**
   * A claimed product, as the trigger copied it; {@code backInStock} when it was queued for coming back in
   * stock (it was unavailable and is available again), not for being new.
   */
  public record Added(
      String productId,
      String title,
      String brand,
      String url,
      String imageUrl,
      boolean backInStock) {}

  private ProductAdditions() {}

  /** Claims up to {@code limit} waiting products; others claiming at once take others. */
  public static List<Added> claim(Handle handle, int limit) {
    return handle
        .createQuery("""
            DELETE FROM product_additions WHERE product_id IN (
              SELECT product_id FROM product_additions ORDER BY product_id
               LIMIT :limit FOR UPDATE SKIP LOCKED)
            RETURNING product_id, title, brand, landing_url, image_url, back_in_stock""")
        .bind("limit", limit)
        .map((rows, context) -> new Added(
            rows.getString("product_id"),
            rows.getString("title"),
            rows.getString("brand"),
            rows.getString("landing_url"),
            rows.getString("image_url"),
            rows.getBoolean("back_in_stock")))
        .list();
  }
}
