package dev.tidings.recommend;

import dev.tidings.recommend.Recommendations.Recommended;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Fills k places from candidates in order, skipping what must not be shown and keeping any one brand to at
 * most half the places (rounded up) while other products can take them; only when nothing else is left
 * does a brand get more.
 */
final class Selection {
  /** A product offered for a place, by which algorithm and with what score. */
  record Candidate(CatalogSnapshot.Ranked product, String algorithm, double score) {}

  private final int k;
  private final int brandCap;
  private final Predicate<String> allowed;
  private final List<Recommended> chosen = new ArrayList<>();
  private final Set<String> taken = new HashSet<>();
  private final Map<String, Integer> perBrand = new HashMap<>();
  private final List<Candidate> heldBack = new ArrayList<>();
  private final Set<String> heldBackIds = new HashSet<>();

  /** {@code allowed}: whether a product id may be shown at all (not excluded, not bought). */
  Selection(int k, Predicate<String> allowed) {
    this.k = k;
    this.brandCap = (k + 1) / 2;
    this.allowed = allowed;
  }

  boolean full() {
    return chosen.size() >= k;
  }

  /** Offers the candidates in order until the places are full. */
  void offer(Iterable<Candidate> candidates) {
    for (Candidate candidate : candidates) {
      if (full()) return;
      offer(candidate);
    }
  }

  void offer(Candidate candidate) {
    String id = candidate.product().id();
    if (full() || taken.contains(id) || !allowed.test(id)) return;
    String brand = candidate.product().brand();
    if (brand != null && perBrand.getOrDefault(brand, 0) >= brandCap) {
      // k held back are enough to fill any free places later
      if (heldBack.size() < k && heldBackIds.add(id)) heldBack.add(candidate);
      return;
    }
    take(candidate);
  }

  /** The chosen products; places still free go to products held back by the brand cap, best first. */
  List<Recommended> result() {
    for (Candidate candidate : heldBack) {
      if (full()) break;
      if (!taken.contains(candidate.product().id())) take(candidate);
    }
    return List.copyOf(chosen);
  }

  private void take(Candidate candidate) {
    taken.add(candidate.product().id());
    String brand = candidate.product().brand();
    if (brand != null) perBrand.merge(brand, 1, Integer::sum);
    chosen.add(new Recommended(candidate.product().id(), candidate.algorithm(), candidate.score()));
  }
}
