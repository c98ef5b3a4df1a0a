package dev.tidings.events.catalog;

import java.time.Instant;

/** A product left the product feed: it is marked unavailable, no longer offered. */
public record LeftFeed(String productId, Instant time) implements ProductEvent {}
