package dev.tidings.catalog;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/**
 * Products of a feed: stored as the feed's ({@code source = 'feed'}). For a fetched feed, which is a full
 * snapshot, {@code snapshot} also marks the feed's products that it no longer lists unavailable when the
 * import completes, in its transaction (they are kept: emails already sent still show them). Every product
 * the import wrote has the import's time as {@code updated_at}, so "left the feed" is a feed product written
 * before it. One instance per import: it keeps how many it marked.
 */
final class ProductFeedStaging implements Staging<Product> {
  private final boolean snapshot;
  private long markedUnavailable;

  ProductFeedStaging(boolean snapshot) {
    this.snapshot = snapshot;
  }

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
  public String key(Product p) {
    return p.id();
  }

  @Override
  public void write(Product p, Instant now, CopyRowWriter out) throws IOException {
    ProductTable.copyRow(p, now, ProductTable.FEED, out);
  }

  @Override
  public long merge(Handle handle, String table, boolean duplicateKeys, Instant now) {
    ProductTable.mergeChunk(handle, table, duplicateKeys, now);
    return 0;
  }

  @Override
  public long complete(Handle handle, Instant now) {
    if (!snapshot) return 0;
    markedUnavailable = ProductTable.markLeftFeedUnavailable(handle, now);
    return markedUnavailable;
  }

  /** How many products that left the feed this import marked unavailable. */
  long markedUnavailable() {
    return markedUnavailable;
  }
}
