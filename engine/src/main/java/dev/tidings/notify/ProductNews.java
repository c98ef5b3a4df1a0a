package dev.tidings.notify;

import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.TargetType;
import dev.tidings.catalog.ProductAdditions;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Products new to the catalogue (and, with {@code TIDINGS_BACK_IN_STOCK_NEWS}, products back in stock), told
 * to the followers of their brand. The catalogue queues each new
 * available product of a brand ({@link ProductAdditions}) with what a notification shows of it; a round
 * claims a batch through it, stores each as published content (unless content with its id exists) and fans
 * them out to their brands' followers in one statement, deleting the claims in the same transaction: a
 * product is told once however many nodes run rounds, and a round of hundreds of products is one pass
 * over their brands' followers.
 */
final class ProductNews {
  /** A claimed product, as the trigger copied it; {@code backInStock}: queued for being back in stock. */
  record Claimed(
      String productId,
      String title,
      String brand,
      String url,
      String imageUrl,
      boolean backInStock) {}

  private ProductNews() {}

  /** Claims up to {@code limit} of the catalogue's new products; others claiming at once take others. */
  static List<Claimed> claim(Handle handle, int limit) {
    return ProductAdditions.claim(handle, limit).stream()
        .map(added -> new Claimed(
            added.productId(),
            added.title(),
            added.brand(),
            added.url(),
            added.imageUrl(),
            added.backInStock()))
        .toList();
  }

  /**
   * Tells the claimed products in the caller's transaction, in one fan-out statement for all brands;
   * returns the buckets written. A new product is told once (when its content is stored); a product back
   * in stock is told again, when {@code backInStockNews} says so, and dropped otherwise.
   */
  static long tell(
      Handle handle, List<Claimed> claimed, LocalDate day, Instant now, boolean backInStockNews) {
    List<Claimed> told = backInStockNews
        ? claimed
        : claimed.stream().filter(product -> !product.backInStock()).toList();
    Map<String, String> brandOf = new HashMap<>();
    for (Claimed product : told) brandOf.put(product.productId(), product.brand());
    var fanOut = new LinkedHashSet<>(ContentTable.insertPublishedProducts(
        handle, told.stream().map(ProductNews::content).toList(), now));
    for (Claimed product : told) if (product.backInStock()) fanOut.add(product.productId());
    List<String> ids = List.copyOf(fanOut);
    return NotificationBuckets.toBrandFollowers(
        handle, day, ids.stream().map(brandOf::get).toList(), ids);
  }

  private static Content content(Claimed product) {
    return new Content(
        product.productId(),
        ContentType.PRODUCT,
        product.title().length() > 300 ? product.title().substring(0, 300) : product.title(),
        Optional.of(product.url()),
        Optional.of(product.imageUrl()),
        List.of(new FollowTarget(TargetType.BRAND, product.brand())),
        Optional.empty(),
        Content.DEFAULT_RADIUS_KM,
        Optional.empty(),
        Optional.empty(),
        true);
  }
}
