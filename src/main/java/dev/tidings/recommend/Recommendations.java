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

  /** One product with why: the algorithm's name and its score (higher is better, comparable within it). */
  public record Recommended(String productId, String algorithm, double score) {
    public Recommended {
      Objects.requireNonNull(productId, "productId");
      Objects.requireNonNull(algorithm, "algorithm");
    }
  }
}
