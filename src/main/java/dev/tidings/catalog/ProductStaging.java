package dev.tidings.catalog;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Staging;
import dev.tidings.imports.StringMaps;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/** Products staged by COPY, merged by one upsert per chunk; within the file the last row of an id wins. */
final class ProductStaging implements Staging<Product> {
  @Override
  public String table() {
    return "products";
  }

  @Override
  public String columns() {
    return """
        id text NOT NULL, title text NOT NULL, brand text, category text, price numeric NOT NULL,
        currency text NOT NULL, image_url text NOT NULL, landing_url text NOT NULL, available boolean NOT NULL,
        attributes text NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL""";
  }

  @Override
  public String copyColumns() {
    return "id, title, brand, category, price, currency, image_url, landing_url, available, attributes, created_at,"
        + " updated_at";
  }

  @Override
  public String key(Product p) {
    return p.id();
  }

  @Override
  public void write(Product p, Instant now, CopyRowWriter out) throws IOException {
    out.text(p.id())
        .text(p.title())
        .text(p.brand().orElse(null))
        .text(p.category().orElse(null))
        .decimal(p.price())
        .text(p.currency().getCurrencyCode())
        .text(p.imageUrl().toString())
        .text(p.landingUrl().toString())
        .bool(p.available())
        .text(StringMaps.write(p.attributes()))
        .instant(now)
        .instant(now);
  }

  /** Chunks of fresh ids are the norm, so a chunk without repeated ids skips the sort that picks the last row. */
  @Override
  public long merge(Handle handle, String table, boolean duplicateKeys, Instant now) {
    String rows = duplicateKeys ? "DISTINCT ON (id)" : "";
    String order = duplicateKeys ? "ORDER BY id, line DESC" : "";
    handle.createUpdate("""
        INSERT INTO products AS p (id, title, brand, category, price, currency, image_url, landing_url, available,
                                   attributes, created_at, updated_at)
        SELECT %s id, title, brand, category, price, currency, image_url, landing_url, available,
               attributes::jsonb, :now, :now
          FROM %s WHERE problem IS NULL
         %s
        ON CONFLICT (id) DO UPDATE SET title = excluded.title, brand = excluded.brand, category = excluded.category,
               price = excluded.price, currency = excluded.currency, image_url = excluded.image_url,
               landing_url = excluded.landing_url, available = excluded.available, attributes = excluded.attributes,
               updated_at = excluded.updated_at""".formatted(rows, table, order)).bind("now", now).execute();
    return 0;
  }
}
