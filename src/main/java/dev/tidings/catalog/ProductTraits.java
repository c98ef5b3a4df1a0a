package dev.tidings.catalog;

import java.util.Optional;

/** What a product is, without how it is shown: enough to group products by taste and to know what can be sold. */
public record ProductTraits(
    String id, Optional<String> brand, Optional<String> category, boolean available) {}
