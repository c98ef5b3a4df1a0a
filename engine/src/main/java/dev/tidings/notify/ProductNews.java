package dev.tidings.notify;

import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.TargetType;
import dev.tidings.events.catalog.BackInStock;
import dev.tidings.events.catalog.ProductAdded;
import dev.tidings.events.catalog.ProductEvent;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Products new to the catalogue (and, with {@code TIDINGS_BACK_IN_STOCK_NEWS}, products back in stock), told
 * to the followers of their brand. The catalogue tells each new or returning product as an event with what
 * a notification shows of it; {@link ProductNewsListener} hands a batch of them here, which stores each as
 * published content (unless content with its id exists) and fans them out to their brands' followers in
 * one statement: a batch of hundreds of products is one pass over their brands' followers.
 */
final class ProductNews {
  /** A product worth telling; {@code backInStock}: told for being back in stock, not for being new. */
  record Claimed(
      String productId,
      String title,
      String brand,
      String url,
      String imageUrl,
      boolean backInStock) {}

  private ProductNews() {}

  /** The products of {@code events} a brand's followers may hear of: those of a brand. */
  static List<Claimed> of(List<ProductEvent> events) {
    List<Claimed> news = new ArrayList<>();
    for (ProductEvent event : events) {
      switch (event) {
        case ProductAdded added
        when added.brand() != null ->
          news.add(new Claimed(
              added.productId(),
              added.title(),
              added.brand(),
              added.url(),
              added.imageUrl(),
              false));
        case BackInStock back
        when back.brand() != null ->
          news.add(new Claimed(
              back.productId(), back.title(), back.brand(), back.url(), back.imageUrl(), true));
        default -> {}
      }
    }
    return news;
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
