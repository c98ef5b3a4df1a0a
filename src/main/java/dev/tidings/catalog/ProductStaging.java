package dev.tidings.catalog;

import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.Json;
import dev.tidings.imports.Staging;
import java.io.IOException;
import java.time.Instant;
import org.jdbi.v3.core.Handle;

/** Products staged by COPY, merged by one upsert; within the file the last row of an id wins. */
final class ProductStaging implements Staging<Product> {
  @Override
  public String createTable() {
    return """
        CREATE TEMP TABLE import_stage (
          line bigint NOT NULL, problem text, id text NOT NULL, title text NOT NULL, brand text, category text,
          price numeric NOT NULL, currency text NOT NULL, image_url text NOT NULL, landing_url text NOT NULL,
          available boolean NOT NULL, attributes text NOT NULL
        ) ON COMMIT DROP""";
  }

  @Override
  public String copy() {
    return "COPY import_stage (line, id, title, brand, category, price, currency, image_url, landing_url, available, attributes)"
        + " FROM STDIN";
  }

  @Override
  public void write(Product p, long line, CopyRowWriter out) throws IOException {
    out.number(line).text(p.id()).text(p.title()).text(p.brand().orElse(null)).text(p.category().orElse(null))
        .decimal(p.price()).text(p.currency().getCurrencyCode()).text(p.imageUrl().toString())
        .text(p.landingUrl().toString()).bool(p.available())
        .text(p.attributes().isEmpty() ? "{}" : Json.MAPPER.writeValueAsString(p.attributes()));
  }

  @Override
  public long merge(Handle handle, Instant now) {
    handle.createUpdate("""
        INSERT INTO products AS p (id, title, brand, category, price, currency, image_url, landing_url, available,
                                   attributes, created_at, updated_at)
        SELECT DISTINCT ON (id) id, title, brand, category, price, currency, image_url, landing_url, available,
               attributes::jsonb, :now, :now
          FROM import_stage WHERE problem IS NULL
         ORDER BY id, line DESC
        ON CONFLICT (id) DO UPDATE SET title = excluded.title, brand = excluded.brand, category = excluded.category,
               price = excluded.price, currency = excluded.currency, image_url = excluded.image_url,
               landing_url = excluded.landing_url, available = excluded.available, attributes = excluded.attributes,
               updated_at = excluded.updated_at""")
        .bind("now", now)
        .execute();
    return 0;
  }
}
