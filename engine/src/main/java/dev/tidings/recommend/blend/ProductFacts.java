package dev.tidings.recommend.blend;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** What the recommender needs of a product: its groups, whether it can be sold, and how new it is. */
public record ProductFacts(
    String id,
    @Nullable String brand,
    @Nullable String category,
    boolean available,
    Instant createdAt) {}
