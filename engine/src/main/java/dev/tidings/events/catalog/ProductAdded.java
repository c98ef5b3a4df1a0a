package dev.tidings.events.catalog;

import java.time.Instant;

/** A product was added to the catalogue, available. */
public record ProductAdded(String productId, Instant time) implements ProductEvent {}
