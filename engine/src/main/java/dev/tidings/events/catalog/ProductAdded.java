package dev.tidings.events.catalog;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A product was added to the catalogue, available: what a notification shows of it comes with it.
 * Imports that say their products are not news ({@code news} off) tell nothing.
 */
public record ProductAdded(
    String productId,
    String title,
    @Nullable String brand,
    String url,
    String imageUrl,
    Instant time)
    implements ProductEvent {}
