package dev.tidings.catalog;

import java.time.Instant;
import java.util.Optional;

/**
 * What a product is, without how it is shown: enough to group products by taste, to know what can be
 * sold and how new it is.
 */
public record ProductTraits(
    String id,
    Optional<String> brand,
    Optional<String> category,
    boolean available,
    Instant createdAt) {}
