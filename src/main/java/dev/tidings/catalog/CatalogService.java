package dev.tidings.catalog;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.WebUrl;
import dev.tidings.imports.BulkImporter;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportKind;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;
import tools.jackson.core.type.TypeReference;

/** The product catalogue: single products by id, pages in id order, and bulk import. */
public final class CatalogService {
  /** Largest page {@link #list} returns. */
  public static final int MAX_PAGE = 1000;

  static final ImportKind<Product> PRODUCTS =
      new ImportKind<>("products", ProductRows.INSTANCE, new ProductStaging());
  private static final String COLUMNS =
      "id, title, brand, category, price, currency, image_url, landing_url, available, attributes::text AS attributes";
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final BulkImporter importer;

  public CatalogService(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
    this.importer = new BulkImporter(jdbi, clock);
  }

  /** Creates or replaces the product with this id. */
  public Product put(Product product) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO products (id, title, brand, category, price, currency, image_url, landing_url, available,
                                  attributes, created_at, updated_at)
            VALUES (:id, :title, :brand, :category, :price, :currency, :imageUrl, :landingUrl, :available,
                    :attributes::jsonb, :now, :now)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, brand = excluded.brand,
                   category = excluded.category, price = excluded.price, currency = excluded.currency,
                   image_url = excluded.image_url, landing_url = excluded.landing_url,
                   available = excluded.available, attributes = excluded.attributes, updated_at = excluded.updated_at""")
        .bind("id", product.id())
        .bind("title", product.title())
        .bind("brand", product.brand().orElse(null))
        .bind("category", product.category().orElse(null))
        .bind("price", product.price())
        .bind("currency", product.currency().getCurrencyCode())
        .bind("imageUrl", product.imageUrl().toString())
        .bind("landingUrl", product.landingUrl().toString())
        .bind("available", product.available())
        .bind("attributes", Json.MAPPER.writeValueAsString(product.attributes()))
        .bind("now", clock.instant())
        .execute());
    return product;
  }

  public Optional<Product> get(String id) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT " + COLUMNS + " FROM products WHERE id = :id")
        .bind("id", id)
        .map(CatalogService::product)
        .findOne());
  }

  /** Up to {@code limit} products in id order, starting after the id {@code after} (keyset pagination). */
  public List<Product> list(Optional<String> after, int limit) {
    if (limit < 1 || limit > MAX_PAGE)
      throw new InvalidInputException("limit must be 1.." + MAX_PAGE + ", got " + limit);
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT " + COLUMNS
            + " FROM products WHERE (:after::text IS NULL OR id > :after) ORDER BY id LIMIT :limit")
        .bind("after", after.orElse(null))
        .bind("limit", limit)
        .map(CatalogService::product)
        .list());
  }

  /** True when a product was deleted, false when there was none with this id. */
  public boolean delete(String id) {
    return jdbi.withHandle(handle -> handle
            .createUpdate("DELETE FROM products WHERE id = :id")
            .bind("id", id)
            .execute())
        > 0;
  }

  public long count() {
    return jdbi.withHandle(handle ->
        handle.createQuery("SELECT count(*) FROM products").mapTo(Long.class).one());
  }

  /** Bulk import from a file (.csv, .jsonl or .ndjson, optionally .gz); see {@link BulkImporter} for bad rows. */
  public ImportReport importFile(Path file, ImportOptions options) {
    return importer.run(PRODUCTS, file, options);
  }

  /** Bulk import from a stream, e.g. a request body; gzip is recognised from the content. */
  public ImportReport importStream(InputStream in, Format format, ImportOptions options) {
    return importer.run(PRODUCTS, in, format, options);
  }

  private static Product product(ResultSet rs, StatementContext ctx) throws SQLException {
    return new Product(
        rs.getString("id"),
        rs.getString("title"),
        Optional.ofNullable(rs.getString("brand")),
        Optional.ofNullable(rs.getString("category")),
        rs.getBigDecimal("price"),
        Currency.getInstance(rs.getString("currency")),
        new WebUrl(rs.getString("image_url")),
        new WebUrl(rs.getString("landing_url")),
        rs.getBoolean("available"),
        Json.MAPPER.readValue(rs.getString("attributes"), STRING_MAP));
  }
}
