package dev.tidings.catalog;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * One row of a {@code products} import: the product, and its prices by market code when the row lists them
 * (they replace the product's market prices; an empty map removes them). Absent, the product keeps its prices.
 */
record ProductImportRow(Product product, Optional<Map<String, BigDecimal>> prices) {}
