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
   * comparable within one answer) and every algorithm that put it there, the main one first, with
   * each one's share of the score ({@code shares}, in the order of {@code reasons}; empty where the
   * recommender does not blend).
   */
  public record Recommended(
      String productId, String algorithm, double score, List<String> reasons, List<Double> shares) {
    public Recommended {
      Objects.requireNonNull(productId, "productId");
      Objects.requireNonNull(algorithm, "algorithm");
      reasons = List.copyOf(reasons);
      shares = List.copyOf(shares);
      if (reasons.isEmpty() || !reasons.getFirst().equals(algorithm))
        throw new IllegalArgumentException(
            "the reasons of " + productId + " start with its main algorithm " + algorithm);
      if (!shares.isEmpty() && shares.size() != reasons.size())
        throw new IllegalArgumentException(
            "the shares of " + productId + " are one per reason: " + reasons + ", " + shares);
    }

    /** Put there by these algorithms, their shares not known. */
    public Recommended(String productId, String algorithm, double score, List<String> reasons) {
      this(productId, algorithm, score, reasons, List.of());
    }

    /** Put there by one algorithm alone. */
    public Recommended(String productId, String algorithm, double score) {
      this(productId, algorithm, score, List.of(algorithm));
    }
  }
}
