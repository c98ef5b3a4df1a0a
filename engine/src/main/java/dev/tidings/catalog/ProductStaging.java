package dev.tidings.catalog;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/** Products in a bulk import: staged by COPY, merged by the table's upsert; the last row of an id wins. */
final class ProductStaging implements Staging<Product> {
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
    ProductTable.copyRow(p, now, out);
  }

  @Override
  public long merge(Handle handle, String table, boolean duplicateKeys, Instant now) {
    ProductTable.mergeChunk(handle, table, duplicateKeys, now);
    return 0;
  }
}
