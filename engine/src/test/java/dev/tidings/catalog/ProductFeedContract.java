package dev.tidings.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.WebUrl;
import dev.tidings.coordination.MutableClock;
import dev.tidings.events.CloudEventType;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.storage.Database;
import dev.tidings.testing.OutboxDeliveries;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Currency;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Google Merchant Center product feeds (RSS, Atom, tab-separated; plain and gzip) on every database. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
public abstract class ProductFeedContract {
  private Database database;
  private CatalogService catalog;
  private final MutableClock clock = new MutableClock();

  @TempDir
  Path dir;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    catalog = new CatalogService(database.jdbi(), clock);
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE products, event_outbox"));
    clock.advance(Duration.ofMinutes(1));
  }

  static Path feed(String name) {
    try {
      return Path.of(ProductFeedContract.class.getResource("/feeds/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "products.rss.xml",
        "products.rss.xml.gz",
        "products.atom.xml",
        "products.tsv",
        "products.tsv.gz"
      })
  void every_feed_format_imports_its_products_with_their_fields(String file) {
    ImportReport report = catalog.importFile(feed(file), ImportOptions.allOrNothing());

    assertThat(report.errors()).isEmpty();
    assertThat(report.committed()).isTrue();
    assertThat(report.imported()).isEqualTo(3);
    Product tv = catalog.get("TV_123456").orElseThrow();
    assertThat(tv.title()).isEqualTo("LG 22LB4510 - 22\" LED TV - 1080p (FullHD)");
    assertThat(tv.brand()).contains("LG");
    assertThat(tv.category()).contains("Consumer Electronics > TVs > Flat Panel TVs");
    assertThat(tv.price()).isEqualByComparingTo("159.00");
    assertThat(tv.salePrice())
        .hasValueSatisfying(sale -> assertThat(sale).isEqualByComparingTo("139"));
    assertThat(tv.currency()).isEqualTo(Currency.getInstance("USD"));
    assertThat(tv.landingUrl())
        .contains(WebUrl.of("https://shop.example.com/electronics/tv/22LB4510.html"));
    assertThat(tv.imageUrl()).contains(WebUrl.of("https://images.example.com/TV_123456.png"));
    assertThat(tv.available()).isTrue();
    assertThat(tv.attributes())
        .containsEntry("gtin", "71919219405200")
        .containsEntry("mpn", "22LB4510/US")
        .containsEntry("condition", "new")
        .containsEntry("availability", "in_stock")
        .containsEntry(
            "google_product_category", "Electronics > Video > Televisions > Flat Panel Televisions")
        .containsKey("description");
    Product tee = catalog.get("TEE_BLUE_M").orElseThrow();
    assertThat(tee.available()).isFalse();
    assertThat(tee.itemGroupId()).contains("TEE");
    assertThat(tee.salePrice()).isEmpty();
    Product phoneCase = catalog.get("PHONE_CASE_9").orElseThrow();
    assertThat(phoneCase.available()).as("a preorder can be ordered").isTrue();
    assertThat(phoneCase.brand()).isEmpty();
  }

  @Test
  void repeated_additional_images_are_joined_and_the_first_product_type_counts() {
    catalog.importFile(feed("products.rss.xml"), ImportOptions.allOrNothing());

    Product tv = catalog.get("TV_123456").orElseThrow();
    assertThat(tv.attributes())
        .containsEntry(
            "additional_image_link",
            "https://images.example.com/TV_123456-side.png,https://images.example.com/TV_123456-back.png");
    assertThat(tv.category()).contains("Consumer Electronics > TVs > Flat Panel TVs");
    assertThat(catalog.get("TEE_BLUE_M").orElseThrow().attributes())
        .as("RSS's own description, CDATA kept as text")
        .containsEntry("description", "Soft <b>cotton</b> tee.");
  }

  /** {@code line}: where the declaration ends, which is where the parser reports it. */
  @ParameterizedTest
  @CsvSource({"xxe.xml, 2", "billion-laughs.xml, 13"})
  void a_feed_with_a_document_type_declaration_is_refused_and_nothing_is_read(
      String file, long line) {
    ImportReport report = catalog.importFile(feed(file), ImportOptions.defaults());

    assertThat(report.committed()).isFalse();
    assertThat(report.failure())
        .hasValueSatisfying(reason -> assertThat(reason).contains("document type declaration"));
    assertThat(report.errors()).extracting(error -> error.line()).containsExactly(line);
    assertThat(catalog.count()).isZero();
  }

  @Test
  void a_bad_item_is_reported_at_its_line_and_all_or_nothing_writes_nothing() throws IOException {
    String xml = """
        <?xml version="1.0"?>
        <rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>
          <item><g:id>A</g:id><g:title>A</g:title><g:link>https://s.example/a</g:link>
            <g:image_link>https://i.example/a.png</g:image_link><g:price>5.00 EUR</g:price></item>
          <item>
            <g:id>B</g:id><g:title>B</g:title><g:link>https://s.example/b</g:link>
            <g:image_link>https://i.example/b.png</g:image_link><g:price>five EUR</g:price>
            <g:availability>sold out</g:availability></item>
          <item><g:id>C</g:id><g:title>C</g:title><g:link>https://s.example/c</g:link>
            <g:image_link>https://i.example/c.png</g:image_link><g:price>5.00 EUR</g:price>
            <g:sale_price>6.00 EUR</g:sale_price></item>
        </channel></rss>
        """;
    Path file = dir.resolve("bad-items.xml");
    Files.writeString(file, xml);

    ImportReport report = catalog.importFile(file, ImportOptions.allOrNothing());

    assertThat(report.committed()).isFalse();
    assertThat(report.rejected()).isEqualTo(2);
    assertThat(report.errors()).extracting(error -> error.line()).containsExactly(5L, 9L);
    assertThat(report.errors().get(0).reason())
        .contains("price must be an amount and an ISO 4217 currency")
        .contains("availability must be in_stock");
    assertThat(report.errors().get(1).reason()).contains("salePrice must be below price");
    assertThat(catalog.count()).isZero();

    ImportReport valid = catalog.importFile(file, ImportOptions.defaults());
    assertThat(valid.imported()).isEqualTo(1);
    assertThat(catalog.get("A")).isPresent();
  }

  @Test
  void broken_xml_is_a_malformed_file_with_its_line() throws IOException {
    Path file = dir.resolve("broken.xml");
    Files.writeString(file, """
        <rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>
          <item><g:id>A</g:id><g:title>A</g:title><g:link>https://s.example/a</g:link>
            <g:image_link>https://i.example/a.png</g:image_link><g:price>5.00 EUR</g:price></item>
          <item><g:id>B</g:title>
        </channel></rss>
        """);

    ImportReport report = catalog.importFile(file, ImportOptions.defaults());

    assertThat(report.committed()).isFalse();
    assertThat(report.failure()).isPresent();
    assertThat(report.errors()).extracting(error -> error.line()).containsExactly(4L);
    assertThat(catalog.count()).isZero();
  }

  @Test
  void a_tab_separated_feed_without_a_required_attribute_is_malformed() throws IOException {
    Path file = dir.resolve("no-price.tsv");
    Files.writeString(
        file,
        "id\ttitle\tlink\timage_link\n" + "A\tA\thttps://s.example/a\thttps://i.example/a.png\n");

    ImportReport report = catalog.importFile(file, ImportOptions.defaults());

    assertThat(report.failure())
        .hasValueSatisfying(reason ->
            assertThat(reason).contains("the header lacks the required attribute 'price'"));
    assertThat(catalog.count()).isZero();
  }

  @Test
  void a_tab_separated_row_is_reported_at_its_line_and_unknown_attributes_are_skipped()
      throws IOException {
    Path file = dir.resolve("rows.tsv");
    Files.writeString(
        file,
        "id\ttitle\tLink\tg:image link\tprice\tcolor\n"
            + "A\t\"A, quoted \"\"tab\"\"\tcell\"\thttps://s.example/a\thttps://i.example/a.png\t5.00 EUR\tred\n"
            + "\n"
            + "B\tB\thttps://s.example/b\thttps://i.example/b.png\t5.00\tblue\n");

    ImportReport report = catalog.importFile(file, ImportOptions.defaults());

    assertThat(report.imported()).isEqualTo(1);
    assertThat(report.errors()).extracting(error -> error.line()).containsExactly(4L);
    assertThat(catalog.get("A").orElseThrow().title()).isEqualTo("A, quoted \"tab\"\tcell");
  }

  @Test
  void a_snapshot_marks_the_feed_products_that_left_it_unavailable_and_no_others()
      throws IOException {
    var own = new Product(
        "OWN_1",
        "The shop's own",
        Optional.empty(),
        Optional.empty(),
        new BigDecimal("3.00"),
        Currency.getInstance("USD"),
        WebUrl.of("https://images.example.com/own.png"),
        WebUrl.of("https://shop.example.com/own"),
        true,
        Map.of());
    catalog.put(own);
    snapshot(Files.readString(feed("products.tsv")));
    clock.advance(Duration.ofHours(1));

    String oneLeft = String.join("\n", Files.readAllLines(feed("products.tsv")).subList(0, 3))
        .replace("159.00 USD\t139.00 USD", "149.00 USD\t99.00 USD")
        .replace("out of stock", "in stock");
    told();
    var second = snapshot(oneLeft);

    assertThat(second.report().imported()).isEqualTo(2);
    assertThat(second.markedUnavailable()).isEqualTo(1);
    assertThat(told())
        .as("what the catalogue told of the second snapshot")
        .containsExactlyInAnyOrder(
            "dev.tidings.catalog.left_feed:PHONE_CASE_9",
            "dev.tidings.catalog.back_in_stock:TEE_BLUE_M",
            "dev.tidings.catalog.price_dropped:TV_123456");
    assertThat(catalog.get("PHONE_CASE_9").orElseThrow().available()).isFalse();
    assertThat(catalog.get("TEE_BLUE_M").orElseThrow().available()).isTrue();
    Product tv = catalog.get("TV_123456").orElseThrow();
    assertThat(tv.price()).isEqualByComparingTo("149");
    assertThat(tv.salePrice())
        .hasValueSatisfying(sale -> assertThat(sale).isEqualByComparingTo("99"));
    assertThat(catalog.get("OWN_1")).contains(own);
  }

  @Test
  void a_snapshot_with_a_bad_row_changes_nothing() throws IOException {
    snapshot(Files.readString(feed("products.tsv")));
    clock.advance(Duration.ofHours(1));

    var bad = snapshot("id\ttitle\tlink\timage_link\tprice\n"
        + "TV_123456\tTV\thttps://s.example/tv\thttps://i.example/tv.png\t1.00 USD\n"
        + "X\tX\tnot a url\thttps://i.example/x.png\t1.00 USD\n");

    assertThat(bad.report().committed()).isFalse();
    assertThat(bad.markedUnavailable()).isZero();
    assertThat(catalog.get("TV_123456").orElseThrow().price()).isEqualByComparingTo("159");
    assertThat(catalog.get("PHONE_CASE_9").orElseThrow().available()).isTrue();
  }

  @Test
  void new_products_of_an_import_that_is_not_news_are_not_queued_as_news() {
    catalog.importFile(feed("products.rss.xml"), ImportOptions.defaults().withNews(false));

    assertThat(catalog.count()).isEqualTo(3);
    assertThat(queuedNews()).isEmpty();

    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE products"));
    catalog.importFile(feed("products.rss.xml"), ImportOptions.defaults());
    assertThat(queuedNews()).containsExactly("TV_123456:false");
  }

  @Test
  void a_product_back_in_stock_is_queued_as_back_in_stock_unless_the_import_is_not_news()
      throws IOException {
    catalog.importFile(feed("products.tsv"), ImportOptions.defaults().withNews(false));
    String inStock = Files.readString(feed("products.tsv")).replace("out of stock", "in_stock");
    Path file = dir.resolve("restocked.tsv");
    Files.writeString(file, inStock);

    catalog.importFile(file, ImportOptions.defaults().withNews(false));
    assertThat(queuedNews()).isEmpty();

    catalog.importFile(feed("products.tsv"), ImportOptions.defaults().withNews(false));
    catalog.importFile(file, ImportOptions.defaults());
    assertThat(queuedNews()).containsExactly("TEE_BLUE_M:true");
  }

  private CatalogService.FeedSnapshot snapshot(String tsv) {
    return catalog.importFeedSnapshot(
        new ByteArrayInputStream(tsv.getBytes(StandardCharsets.UTF_8)),
        Format.FEED_TSV,
        ImportOptions.allOrNothing());
  }

  /** Every event the catalogue told since the last call, as type:subject. */
  private List<String> told() {
    return OutboxDeliveries.take(database.jdbi(), EnumSet.allOf(CloudEventType.class)).stream()
        .map(
            event -> event.envelope().type().typeName() + ":" + event.envelope().subject())
        .toList();
  }

  /** The products told as news for their brand's followers: new or back in stock, of a brand. */
  private List<String> queuedNews() {
    return database
        .jdbi()
        .withHandle(handle -> handle.createQuery("""
                SELECT (e->>'subject') || ':' || (e->>'type' = 'dev.tidings.catalog.back_in_stock')
                  FROM event_outbox, jsonb_array_elements(CAST(events AS jsonb)) AS e
                 WHERE e->>'type' IN ('dev.tidings.catalog.product_added',
                                      'dev.tidings.catalog.back_in_stock')
                   AND e->'data'->>'brand' IS NOT NULL
                 ORDER BY 1""").mapTo(String.class).list());
  }
}
