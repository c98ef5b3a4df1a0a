package dev.tidings.catalog;

/**
 * What counts as the same product when an email must not show one twice: the one function every
 * exclusion keys on (slots against a digest's items, the template's products and each other). The
 * variants of one item (sizes, colours: one {@code item_group_id} in a product feed) are one product to
 * a reader, so they share their group's key; a product without a group is itself.
 */
public final class SameProduct {
  private SameProduct() {}

  /** The key two products share exactly when an email should show only one of them. */
  public static String key(Product product) {
    return product.itemGroupId().map(group -> "group:" + group).orElse(product.id());
  }
}
