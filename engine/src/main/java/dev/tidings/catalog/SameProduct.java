package dev.tidings.catalog;

/**
 * What counts as the same product when an email must not show one twice: the one function every
 * exclusion keys on (slots against a digest's items, the template's products and each other). Today a
 * product is itself; to count the variants of one item as one product, key on its item group instead,
 * {@code product.itemGroupId().orElse(product.id())}: that line is the whole change.
 */
public final class SameProduct {
  private SameProduct() {}

  /** The key two products share exactly when an email should show only one of them. */
  public static String key(Product product) {
    return product.id();
  }
}
