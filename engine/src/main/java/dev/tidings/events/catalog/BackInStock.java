package dev.tidings.events.catalog;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A product that was unavailable is available again, with what a notification shows of it. */
public record BackInStock(
    String productId,
    String title,
    @Nullable String brand,
    String url,
    String imageUrl,
    Instant time)
    implements ProductEvent {}
