package dev.tidings.catalog;

import dev.tidings.PageLimit;
import dev.tidings.imports.BulkImporter;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportKind;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.storage.StoredRowRepair;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/** The product catalogue: single products by id, pages in id order, and bulk import. */
public final class CatalogService {
  /** Largest page {@link #list} returns. */
  public static final int MAX_PAGE = PageLimit.MAX;

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
    jdbi.useHandle(handle -> ProductTable.upsert(handle, product, clock.instant()));
    return product;
  }

  /**
   * Creates the product unless one with its id exists, in one statement, so that of two concurrent creates
   * of an id exactly one succeeds.
   *
   * @return the stored product; empty when the id exists (nothing changed)
   */
  public Optional<Product> create(Product product) {
    return jdbi.withHandle(handle -> ProductTable.insertNew(handle, product, clock.instant()));
  }

  /** The products among {@code ids}, by id (ids of no product are not among them); one query. */
  public Map<String, Product> getAll(Collection<String> ids) {
    if (ids.isEmpty()) return Map.of();
    return jdbi.withHandle(handle -> ProductTable.findAll(handle, ids));
  }

  public Optional<Product> get(String id) {
    return jdbi.withHandle(handle -> ProductTable.find(handle, id));
  }

  /** The products among {@code ids} that exist, by id, in one query. */
  /**
   * The ids of the products whose landing or image URL is among {@code urls} (the products a template
   * names by link or picture). A scan of the table, meant once per campaign, not per email.
   */
  public Set<String> namedBy(Collection<String> urls) {
    if (urls.isEmpty()) return Set.of();
    return jdbi.withHandle(handle -> Set.copyOf(handle
        .createQuery(
            "SELECT id FROM products WHERE landing_url = ANY(:urls) OR image_url = ANY(:urls)")
        .bindArray("urls", String.class, urls)
        .mapTo(String.class)
        .list()));
  }

  /** Up to {@code limit} products in id order, starting after the id {@code after} (keyset pagination). */
  public List<Product> list(Optional<String> after, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> ProductTable.page(handle, after, limit));
  }

  /**
   * The traits of every product, available or not, for a periodic in-memory index (recommendations); one
   * scan of the table, so not for the request path.
   */
  public List<ProductTraits> allTraits() {
    return jdbi.inTransaction(ProductTable::traits);
  }

  /** Those of {@code ids} that are products marked unavailable (ids of no product are not among them). */
  public Set<String> unavailableAmong(Collection<String> ids) {
    if (ids.isEmpty()) return Set.of();
    return jdbi.withHandle(handle -> Set.copyOf(handle
        .createQuery("SELECT id FROM products WHERE id = ANY(:ids) AND NOT available")
        .bindArray("ids", String.class, ids)
        .mapTo(String.class)
        .list()));
  }

  /** True when a product was deleted, false when there was none with this id. */
  public boolean delete(String id) {
    return jdbi.inTransaction(handle -> ProductTable.delete(handle, id));
  }

  /**
   * What repairs the products an earlier version stored that today's rules refuse (run by {@code
   * tidings migrate}; see {@link ProductRepair}).
   */
  public StoredRowRepair storedRowRepair() {
    return new ProductRepair(jdbi);
  }

  public long count() {
    return jdbi.withHandle(ProductTable::count);
  }

  /**
   * Bulk import from a file: CSV, JSON Lines or a product feed (RSS/Atom with the {@code g:} namespace, or
   * tab-separated), optionally gzip-compressed; see {@link Format#detect(Path)}.
   * See {@link BulkImporter} for bad rows.
   */
  public ImportReport importFile(Path file, ImportOptions options) {
    Format format = Format.detect(file);
    if (format.isFeed()) {
      return importer.run(feedKind(new ProductFeedStaging(false)), file, format, options);
    }
    return importer.run(productsKind(), file, format, options);
  }

  /**
   * Imports a product feed that is a full snapshot of the shop's catalogue (a fetched feed), in its format
   * told from the content: its products are upserted as the feed's, and when the import commits, the feed's
   * products it no longer lists are marked unavailable in the same transaction (kept, not deleted).
   */
  public FeedSnapshot importFeedSnapshot(InputStream in, Format format, ImportOptions options) {
    if (!format.isFeed())
      throw new IllegalArgumentException("not a product feed format: " + format);
    var staging = new ProductFeedStaging(true);
    ImportReport report = importer.run(feedKind(staging), in, format, options);
    return new FeedSnapshot(report, report.committed() ? staging.markedUnavailable() : 0);
  }

  /** What a feed snapshot's import did: the import's report and the products that left the feed. */
  public record FeedSnapshot(ImportReport report, long markedUnavailable) {}

  /**
   * The {@code products} format with market prices, for one import: its prices are checked against the markets
   * there are now, and its staging keeps that import's prices.
   */
  private ImportKind<ProductImportRow> productsKind() {
    var currencies = jdbi.withHandle(Markets::currencies);
    return new ImportKind<>(
        "products", new ProductImportRows(currencies), new ProductImportStaging());
  }

  private static ImportKind<Product> feedKind(ProductFeedStaging staging) {
    return new ImportKind<>("products", ProductFeedRows.INSTANCE, staging);
  }

  /** Bulk import from a stream, e.g. a request body; gzip is recognised from the content. */
  public ImportReport importStream(InputStream in, Format format, ImportOptions options) {
    if (format.isFeed())
      return importer.run(feedKind(new ProductFeedStaging(false)), in, format, options);
    return importer.run(productsKind(), in, format, options);
  }
}
