package dev.tidings.catalog;

import dev.tidings.WebUrl;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.catalog.LeftFeed;
import dev.tidings.imports.CopyRowWriter;
import dev.tidings.imports.StringMaps;
import dev.tidings.storage.StoredRows;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.StatementContext;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of the {@code products} table (V1__catalog_audience_activity.sql): its columns, how a row becomes a
 * {@link Product} and back, and the upsert that single writes and bulk imports share. Statements run on the
 * caller's handle, so the caller decides the transaction.
 */
final class ProductTable {
  static final String NAME = "products";
  /** The source of a product that came from the scheduled product feed. */
  static final String FEED = "feed";

  /** The columns every write sets, in the order of {@link #copyRow}. */
  static final String COLUMNS =
      "id, title, brand, category, price, currency, image_url, landing_url, available,"
          + " attributes, created_at, updated_at, sale_price, item_group_id, source";

  /**
   * A chunk table's columns for a bulk import: the written columns without the table's constraints, so that
   * every row arrives and the merge decides; attributes stay text until the merge casts them.
   */
  static final String CHUNK_COLUMNS = """
      id text NOT NULL, title text NOT NULL, brand text, category text, price numeric NOT NULL,
      currency text NOT NULL, image_url text NOT NULL, landing_url text NOT NULL, available boolean NOT NULL,
      attributes text NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
      sale_price numeric, item_group_id text, source text""";

  /** What a read returns; jsonb comes back as text for {@link StoredProduct}. */
  static final String READ_COLUMNS =
      "id, title, brand, category, price, currency, image_url, landing_url, available,"
          + " attributes::text AS attributes, sale_price, item_group_id";

  private static final String INSERT = "INSERT INTO products (" + COLUMNS + ") ";

  private static final String VALUES =
      "VALUES (:id, :title, :brand, :category, :price, :currency, :imageUrl, :landingUrl, :available,"
          + " :attributes::jsonb, :now, :now, :salePrice, :itemGroupId, NULL) ";

  /** An existing id keeps its created_at; everything else is replaced. */
  private static final String REPLACE_ON_CONFLICT = """
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, brand = excluded.brand, category = excluded.category,
             price = excluded.price, currency = excluded.currency, image_url = excluded.image_url,
             landing_url = excluded.landing_url, available = excluded.available, attributes = excluded.attributes,
             updated_at = excluded.updated_at, sale_price = excluded.sale_price,
             item_group_id = excluded.item_group_id, source = excluded.source""";

  private ProductTable() {}

  /** Creates or replaces the product with this id. */
  static void upsert(Handle handle, Product product, Instant now) {
    bind(handle.createUpdate(INSERT + VALUES + REPLACE_ON_CONFLICT), product, now)
        .execute();
  }

  /** Inserts the product unless its id exists, in one statement; empty when it existed. */
  static Optional<Product> insertNew(Handle handle, Product product, Instant now) {
    return bind(
            handle.createQuery(
                INSERT + VALUES + "ON CONFLICT (id) DO NOTHING RETURNING " + READ_COLUMNS),
            product,
            now)
        .map(ProductTable::product)
        .findOne()
        .flatMap(stored -> stored);
  }

  /** The product with this id; empty too when its row cannot be read by today's rules (logged). */
  static Optional<Product> find(Handle handle, String id) {
    return handle
        .createQuery("SELECT " + READ_COLUMNS + " FROM products WHERE id = :id")
        .bind("id", id)
        .map(ProductTable::product)
        .findOne()
        .flatMap(stored -> stored);
  }

  static Map<String, Product> findAll(Handle handle, Collection<String> ids) {
    var found = new LinkedHashMap<String, Product>();
    handle
        .createQuery("SELECT " + READ_COLUMNS + " FROM products WHERE id = ANY(:ids)")
        .bindArray("ids", String.class, ids)
        .map(ProductTable::product)
        .forEach(stored -> stored.ifPresent(product -> found.put(product.id(), product)));
    return found;
  }

  /**
   * Up to {@code limit} products in id order after the id {@code after}. A row left out as unreadable
   * (see {@link StoredProduct}) is made up for from the rows after it, so a short page still means
   * the last one.
   */
  static List<Product> page(Handle handle, Optional<String> after, int limit) {
    var products = new ArrayList<Product>(limit);
    Optional<String> from = after;
    while (products.size() < limit) {
      int asked = limit - products.size();
      var rows = handle
          .createQuery("SELECT " + READ_COLUMNS
              + " FROM products WHERE (:after::text IS NULL OR id > :after) ORDER BY id LIMIT"
              + " :limit")
          .bind("after", from.orElse(null))
          .bind("limit", asked)
          .map((rs, ctx) -> Map.entry(rs.getString("id"), product(rs, ctx)))
          .list();
      for (var row : rows) row.getValue().ifPresent(products::add);
      if (rows.size() < asked) break;
      from = Optional.of(rows.getLast().getKey());
    }
    return products;
  }

  static final String TRAITS = "SELECT id, brand, category, available, created_at FROM products";

  /** Every product's traits, streamed row by row so a large catalogue never sits in the driver twice. */
  static List<ProductTraits> traits(Handle handle) {
    return handle
        .createQuery(TRAITS)
        .setFetchSize(10_000)
        .map(ProductTable::traitsRow)
        .list();
  }

  /** A row of {@link #TRAITS}. */
  static ProductTraits traitsRow(ResultSet rs, StatementContext ctx) throws SQLException {
    return new ProductTraits(
        rs.getString("id"),
        Optional.ofNullable(rs.getString("brand")),
        Optional.ofNullable(rs.getString("category")),
        rs.getBoolean("available"),
        rs.getTimestamp("created_at").toInstant());
  }

  static boolean delete(Handle handle, String id) {
    // its market prices go with it (product_prices has no foreign key, see V36)
    handle
        .createUpdate("DELETE FROM product_prices WHERE product_id = :id")
        .bind("id", id)
        .execute();
    return handle
            .createUpdate("DELETE FROM products WHERE id = :id")
            .bind("id", id)
            .execute()
        > 0;
  }

  static long count(Handle handle) {
    return handle.createQuery("SELECT count(*) FROM products").mapTo(Long.class).one();
  }

  /**
   * Upserts the rows of a chunk table that have no problem. Chunks of fresh ids are the norm, so a chunk
   * without repeated ids skips the sort that picks each id's last row.
   */
  static void mergeChunk(Handle handle, String chunkTable, boolean duplicateKeys, Instant now) {
    String rows = duplicateKeys ? "DISTINCT ON (id)" : "";
    String order = duplicateKeys ? "ORDER BY id, line DESC" : "";
    handle
        .createUpdate(INSERT + """
            SELECT %s id, title, brand, category, price, currency, image_url, landing_url, available,
                   attributes::jsonb, :now, :now, sale_price, item_group_id, source
              FROM %s WHERE problem IS NULL
             %s
            """.formatted(rows, chunkTable, order) + REPLACE_ON_CONFLICT)
        .bind("now", now)
        .execute();
  }

  /**
   * Marks the feed's available products not written at {@code now} (by this feed's import) unavailable;
   * returns how many.
   */
  static long markLeftFeedUnavailable(Handle handle, Instant now) {
    List<String> left =
        handle.createQuery("""
            UPDATE products SET available = false, updated_at = :now
             WHERE source = 'feed' AND available AND updated_at < :now
            RETURNING id""").bind("now", now).mapTo(String.class).list();
    EventOutbox.ON.append(handle, left.stream().map(id -> new LeftFeed(id, now)).toList());
    return left.size();
  }

  /** One row as COPY text for {@link #COLUMNS}, written by the shop itself (not the feed). */
  static void copyRow(Product p, Instant now, CopyRowWriter out) throws IOException {
    copyRow(p, now, null, out);
  }

  /** One row as COPY text for {@link #COLUMNS}; {@code source} is 'feed' or null. */
  static void copyRow(Product p, Instant now, @Nullable String source, CopyRowWriter out)
      throws IOException {
    out.text(p.id())
        .text(p.title())
        .text(p.brand().orElse(null))
        .text(p.category().orElse(null))
        .decimal(p.price())
        .text(p.currency().getCurrencyCode())
        .text(p.imageUrl().map(WebUrl::value).orElse(null))
        .text(p.landingUrl().map(WebUrl::value).orElse(null))
        .bool(p.available())
        .text(StringMaps.write(p.attributes()))
        .instant(now)
        .instant(now)
        .decimal(p.salePrice().orElse(null))
        .text(p.itemGroupId().orElse(null))
        .text(source);
  }

  private static <S extends SqlStatement<S>> S bind(S statement, Product product, Instant now) {
    return statement
        .bind("id", product.id())
        .bind("title", product.title())
        .bind("brand", product.brand().orElse(null))
        .bind("category", product.category().orElse(null))
        .bind("price", product.price())
        .bind("currency", product.currency().getCurrencyCode())
        .bind("imageUrl", product.imageUrl().map(WebUrl::value).orElse(null))
        .bind("landingUrl", product.landingUrl().map(WebUrl::value).orElse(null))
        .bind("available", product.available())
        .bind("attributes", StringMaps.write(product.attributes()))
        .bind("salePrice", product.salePrice().orElse(null))
        .bind("itemGroupId", product.itemGroupId().orElse(null))
        .bind("now", now);
  }

  /** A row of {@link #READ_COLUMNS} as today's rules read it (see {@link StoredProduct}). */
  private static Optional<Product> product(ResultSet rs, StatementContext ctx) throws SQLException {
    return StoredProduct.read(rs, StoredRows.of(ctx));
  }
}
