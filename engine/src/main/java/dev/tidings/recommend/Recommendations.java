package dev.tidings.recommend;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/** Products best first, each with the algorithm that put it there; never a product twice. */
public record Recommendations(List<Recommended> items) {
  public Recommendations {
    items = List.copyOf(items);
    var seen = new HashSet<String>();
    for (Recommended item : items) {
      if (!seen.add(item.productId()))
        throw new IllegalArgumentException("product " + item.productId() + " recommended twice");
    }
  }

  public List<String> productIds() {
    return items.stream().map(Recommended::productId).toList();
  }

  /**
   * One product with why: the algorithm that weighed most for it, its score (higher is better,
   * comparable within one answer) and every algorithm that put it there, the main one first.
   */
  public record Recommended(
      String productId, String algorithm, double score, List<String> reasons) {
    public Recommended {
      Objects.requireNonNull(productId, "productId");
      Objects.requireNonNull(algorithm, "algorithm");
      reasons = List.copyOf(reasons);
      if (reasons.isEmpty() || !reasons.getFirst().equals(algorithm))
        throw new IllegalArgumentException(
            "the reasons of " + productId + " start with its main algorithm " + algorithm);
    }

    /** Put there by one algorithm alone. */
    public Recommended(String productId, String algorithm, double score) {
      this(productId, algorithm, score, List.of(algorithm));
    }
  }
}
