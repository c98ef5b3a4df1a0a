package dev.tidings.events.catalog;

import dev.tidings.events.DomainEvent;

/** Something that happened to a product of the catalogue. */
public sealed interface ProductEvent extends DomainEvent
    permits ProductAdded, PriceDropped, BackInStock, LeftFeed {
  String productId();

  @Override
  default String subject() {
    return productId();
  }
}
