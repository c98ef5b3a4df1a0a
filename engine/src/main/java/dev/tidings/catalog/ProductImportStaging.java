package dev.tidings.catalog;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Products of a {@code products} import with their market prices. The products go the way of every import
 * (COPY, merge; the last row of an id wins); the prices of the rows that list them are kept until the import
 * completes and then replace those products' market prices, in the import's transaction, so that an import
 * that is not committed writes none. One instance per import. Products are never refused after their rows
 * were read (the table has no check of its own beyond the row's rules), so every row kept here is imported.
 */
final class ProductImportStaging implements Staging<ProductImportRow> {
  /** Products whose prices one statement replaces: a bound on the arrays sent at once. */
  private static final int BATCH = 5_000;

  /** Rows arrive on the parsing thread; {@link #complete} runs on the merging one after the last chunk. */
  private final Map<String, Map<String, BigDecimal>> pricesByProduct = new HashMap<>();

  @Override
  public String table() {
    return ProductTable.NAME;
  }

  @Override
  public String columns() {
    return ProductTable.CHUNK_COLUMNS;
  }

  @Override
  public String copyColumns() {
    return ProductTable.COLUMNS;
  }

  @Override
  public String key(ProductImportRow row) {
    return row.product().id();
  }

  @Override
  public void write(ProductImportRow row, Instant now, CopyRowWriter out) throws IOException {
    ProductTable.copyRow(row.product(), now, out);
    row.prices().ifPresent(prices -> remember(row.product().id(), prices));
  }

  private synchronized void remember(String productId, Map<String, BigDecimal> prices) {
    // a later row of the same product replaces the prices of an earlier one,
    // as it replaces the product
    pricesByProduct.put(productId, prices);
  }

  @Override
  public long merge(Handle handle, String table, boolean duplicateKeys, Instant now) {
    ProductTable.mergeChunk(handle, table, duplicateKeys, now);
    return 0;
  }

  @Override
  public synchronized long complete(Handle handle, Instant now) {
    List<String> ids = new ArrayList<>(pricesByProduct.keySet());
    for (int from = 0; from < ids.size(); from += BATCH) {
      List<String> batch = ids.subList(from, Math.min(ids.size(), from + BATCH));
      Markets.replacePrices(handle, batch, pricesByProduct);
    }
    return 0;
  }
}
