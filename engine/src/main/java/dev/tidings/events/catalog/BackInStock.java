package dev.tidings.events.catalog;

import java.time.Instant;

/** A product that was unavailable is available again. */
public record BackInStock(String productId, Instant time) implements ProductEvent {}
