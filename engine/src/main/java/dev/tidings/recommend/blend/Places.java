package dev.tidings.recommend.blend;

import dev.tidings.recommend.Recommendations.Recommended;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Fills k places from candidates in the order offered: a product at most once, only products {@code
 * allowed}, and no brand or category past its cap while other products can take the place. Products
 * held back by a cap take the places still free at the end, best first.
 */
final class Places {
  /** A product offered for a place, with its score and why. */
  record Offer(String productId, double score, List<String> reasons, List<Double> shares) {}

  private final int k;
  private final int brandCap;
  private final int categoryCap;
  private final Predicate<String> allowed;
  private final ItemModel items;
  private final List<Recommended> chosen = new ArrayList<>();
  private final Set<String> taken = new HashSet<>();
  private final Map<String, Integer> perBrand = new HashMap<>();
  private final Map<String, Integer> perCategory = new HashMap<>();
  private final List<Offer> heldBack = new ArrayList<>();

  Places(int k, BlendSettings settings, ItemModel items, Predicate<String> allowed) {
    this.k = k;
    this.brandCap = settings.brandCap();
    this.categoryCap = settings.categoryCap();
    this.items = items;
    this.allowed = allowed;
  }

  boolean full() {
    return chosen.size() >= k;
  }

  void offer(Offer offer) {
    String id = offer.productId();
    if (full() || taken.contains(id) || !allowed.test(id)) return;
    ProductFacts product = items.product(id);
    if (product == null || !product.available()) return;
    if (over(perBrand, product.brand(), brandCap)
        || over(perCategory, product.category(), categoryCap)) {
      // k held back are enough to fill any place left free
      if (heldBack.size() < k) heldBack.add(offer);
      return;
    }
    take(offer, product);
  }

  /** The chosen products; places still free go to those held back by a cap, best first. */
  List<Recommended> result() {
    for (Offer offer : heldBack) {
      if (full()) break;
      ProductFacts product = items.product(offer.productId());
      if (product != null && !taken.contains(offer.productId())) take(offer, product);
    }
    return List.copyOf(chosen);
  }

  private static boolean over(Map<String, Integer> counts, @Nullable String group, int cap) {
    return group != null && counts.getOrDefault(group, 0) >= cap;
  }

  private void take(Offer offer, ProductFacts product) {
    taken.add(offer.productId());
    if (product.brand() != null) perBrand.merge(product.brand(), 1, Integer::sum);
    if (product.category() != null) perCategory.merge(product.category(), 1, Integer::sum);
    chosen.add(new Recommended(
        offer.productId(),
        offer.reasons().getFirst(),
        offer.score(),
        offer.reasons(),
        offer.shares()));
  }
}
