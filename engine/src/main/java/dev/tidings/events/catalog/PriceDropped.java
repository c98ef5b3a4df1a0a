package dev.tidings.events.catalog;

import java.math.BigDecimal;
import java.time.Instant;

/** A product's price dropped from {@code from} to {@code to}, in {@code currency}. */
public record PriceDropped(
    String productId, BigDecimal from, BigDecimal to, String currency, Instant time)
    implements ProductEvent {}
