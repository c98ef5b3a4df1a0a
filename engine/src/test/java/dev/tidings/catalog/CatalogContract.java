package dev.tidings.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.WebUrl;
import dev.tidings.coordination.Race;
import dev.tidings.storage.Database;
import dev.tidings.storage.StoredRows;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What every database behind {@link CatalogService} must do. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class CatalogContract {
  private Database database;
  private CatalogService catalog;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    catalog = new CatalogService(
        database.jdbi(), InstantSource.fixed(Instant.parse("2025-01-01T00:00:00Z")));
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE products"));
  }

  static Product product(String id) {
    return new Product(
        id,
        "Title " + id,
        Optional.of("Acme"),
        Optional.of("women/shoes"),
        new BigDecimal("19.90"),
        Currency.getInstance("EUR"),
        WebUrl.of("https://img.example.com/" + id + ".jpg"),
        WebUrl.of("https://shop.example.com/" + id),
        true,
        Map.of("color", "red", "size", "42"));
  }

  @Test
  void a_product_put_is_read_back_with_every_field() {
    Product product = product("p-1");
    catalog.put(product);
    assertThat(catalog.get("p-1")).contains(product);
    assertThat(catalog.get("p-1").orElseThrow().price().scale()).isEqualTo(2);
  }

  @Test
  void optional_fields_may_be_absent() {
    var bare = new Product(
        "p-2",
        "Bare",
        Optional.empty(),
        Optional.empty(),
        BigDecimal.ZERO,
        Currency.getInstance("JPY"),
        WebUrl.of("http://i.example/x.png"),
        WebUrl.of("http://s.example/x"),
        false,
        Map.of());
    catalog.put(bare);
    assertThat(catalog.get("p-2")).contains(bare);
  }

  @Test
  void put_replaces_a_product_with_the_same_id() {
    catalog.put(product("p-1"));
    Product cheaper = new Product(
        "p-1",
        "New title",
        Optional.empty(),
        Optional.empty(),
        new BigDecimal("9.99"),
        Currency.getInstance("USD"),
        WebUrl.of("https://img.example.com/n.jpg"),
        WebUrl.of("https://shop.example.com/n"),
        false,
        Map.of());
    catalog.put(cheaper);
    assertThat(catalog.get("p-1")).contains(cheaper);
    assertThat(catalog.count()).isEqualTo(1);
  }

  @Test
  void create_stores_a_new_id_and_leaves_an_existing_one_alone() {
    Product product = product("p-1");
    assertThat(catalog.create(product)).contains(product);
    assertThat(catalog.create(titled(product("p-1"), "Other"))).isEmpty();
    assertThat(catalog.get("p-1")).contains(product);
    assertThat(catalog.count()).isEqualTo(1);
  }

  @Test
  void of_concurrent_creates_of_one_id_exactly_one_succeeds_and_its_row_is_stored() {
    for (int round = 0; round < 10; round++) {
      String id = "race-" + round;
      // More writers than the test pool's connections, so some always wait on others' statements.
      List<Product> candidates = IntStream.range(0, 16)
          .mapToObj(i -> titled(product(id), "Writer " + i))
          .toList();
      List<Optional<Product>> results =
          Race.together(candidates, catalog::create, Duration.ofSeconds(30));
      assertThat(results).filteredOn(Optional::isPresent).hasSize(1);
      int winner = IntStream.range(0, results.size())
          .filter(i -> results.get(i).isPresent())
          .findFirst()
          .orElseThrow();
      assertThat(results.get(winner)).contains(candidates.get(winner));
      assertThat(catalog.get(id)).contains(candidates.get(winner));
    }
    assertThat(catalog.count()).isEqualTo(10);
  }

  private static Product titled(Product product, String title) {
    return new Product(
        product.id(),
        title,
        product.brand(),
        product.category(),
        product.price(),
        product.currency(),
        product.imageUrl().orElseThrow(),
        product.landingUrl().orElseThrow(),
        product.available(),
        product.attributes());
  }

  @Test
  void an_unknown_id_is_empty_and_delete_says_whether_there_was_one() {
    assertThat(catalog.get("nope")).isEmpty();
    catalog.put(product("p-1"));
    assertThat(catalog.delete("p-1")).isTrue();
    assertThat(catalog.delete("p-1")).isFalse();
    assertThat(catalog.get("p-1")).isEmpty();
  }

  @Test
  void list_pages_through_every_product_in_id_order() {
    for (int i = 0; i < 25; i++) catalog.put(product(String.format("p-%02d", i)));
    List<String> seen = new ArrayList<>();
    Optional<String> after = Optional.empty();
    while (true) {
      List<Product> page = catalog.list(after, 10);
      page.forEach(p -> seen.add(p.id()));
      if (page.size() < 10) break;
      after = Optional.of(page.getLast().id());
    }
    assertThat(seen).hasSize(25).isSorted().doesNotHaveDuplicates();
    assertThat(catalog.count()).isEqualTo(25);
  }

  @Test
  void a_page_limit_out_of_range_is_invalid_input() {
    assertThatThrownBy(() -> catalog.list(Optional.empty(), 0))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("limit");
  }

  @Test
  void products_breaking_a_rule_are_refused_with_every_problem() {
    assertThatThrownBy(() -> new Product(
            "bad id",
            "",
            Optional.empty(),
            Optional.empty(),
            new BigDecimal("1.234"),
            Currency.getInstance("EUR"),
            null,
            WebUrl.of("https://s.example/ok"),
            true,
            Map.of()))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .containsExactly(
                    "id must be 1-64 characters of A-Z a-z 0-9 . _ : -, got 'bad id'",
                    "title must not be empty",
                    "price must have at most 2 decimal places for EUR, got 1.234",
                    "missing required field 'imageUrl'"));
  }

  /** A row as an earlier version wrote it: straight into the table, past today's rules. */
  private void storedEarlier(String id, String title, String imageUrl, String landingUrl) {
    database
        .jdbi()
        .useHandle(handle -> handle
            .createUpdate("""
            INSERT INTO products (id, title, price, currency, image_url, landing_url, available,
                                  attributes, created_at, updated_at)
            VALUES (:id, :title, 19.90, 'EUR', :image, :landing, true, '{}', now(), now())""")
            .bind("id", id)
            .bind("title", title)
            .bind("image", imageUrl)
            .bind("landing", landingUrl)
            .execute());
  }

  private double unreadable(String field) {
    return StoredRows.of(database.jdbi()).counted("products", field);
  }

  @Test
  void a_landing_url_an_earlier_version_stored_is_read_without_it_and_counted() {
    catalog.put(product("p-1"));
    storedEarlier("p-old", "Old", "https://img.example.com/old.jpg", "http://[1.2.3]/x");
    double before = unreadable("landing_url");

    Product old = catalog.get("p-old").orElseThrow();
    assertThat(old.landingUrl()).isEmpty();
    assertThat(old.imageUrl()).contains(WebUrl.of("https://img.example.com/old.jpg"));
    assertThat(old.title()).isEqualTo("Old");
    assertThat(catalog.list(Optional.empty(), 10))
        .extracting(Product::id)
        .containsExactly("p-1", "p-old");
    assertThat(catalog.getAll(List.of("p-1", "p-old"))).containsOnlyKeys("p-1", "p-old");
    assertThat(unreadable("landing_url")).isEqualTo(before + 3);
    assertThat(ProductJson.toJson(old).has("landingUrl")).isFalse();
  }

  @Test
  void the_repair_clears_what_today_refuses_reports_it_and_then_finds_nothing() {
    catalog.put(product("p-1"));
    storedEarlier("p-old", "Old", "https://img.example.com/old.jpg", "http://[1.2.3]/x");
    storedEarlier("p-older", "Older", "ftp://img.example.com/x.jpg", "http://[1.2.3]/y");
    var repair = catalog.storedRowRepair();

    var first = repair.repairSome(Optional.empty(), 100);
    assertThat(first.repaired())
        .containsExactlyInAnyOrderEntriesOf(Map.of("landing_url", 2L, "image_url", 1L));
    assertThat(first.unrepairable()).isEmpty();
    assertThat(first.done()).isTrue();
    String landing = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT coalesce(landing_url, 'cleared') FROM products WHERE id = 'p-old'")
            .mapTo(String.class)
            .one());
    assertThat(landing).isEqualTo("cleared");
    assertThat(catalog.get("p-1")).contains(product("p-1"));

    double before = unreadable("landing_url");
    assertThat(catalog.get("p-old").orElseThrow().landingUrl()).isEmpty();
    assertThat(unreadable("landing_url")).as("a cleared URL is no news").isEqualTo(before);
    var again = repair.repairSome(Optional.empty(), 100);
    assertThat(again.repaired()).isEmpty();
    assertThat(again.unrepairable()).isEmpty();
  }

  @Test
  void the_repair_goes_page_by_page_in_id_order() {
    for (int i = 0; i < 5; i++)
      storedEarlier("p-" + i, "T", "https://i.example/" + i, "http://[1.2.3]/" + i);
    var repair = catalog.storedRowRepair();

    var first = repair.repairSome(Optional.empty(), 2);
    assertThat(first.last()).contains("p-1");
    assertThat(first.done()).isFalse();
    var second = repair.repairSome(first.last(), 2);
    var third = repair.repairSome(second.last(), 2);
    assertThat(third.done()).isTrue();
    assertThat(first.repaired().get("landing_url")
            + second.repaired().get("landing_url")
            + third.repaired().get("landing_url"))
        .isEqualTo(5);
  }

  @Test
  void a_row_without_a_readable_title_is_left_out_of_pages_that_still_fill_and_is_never_changed() {
    catalog.put(product("p-1"));
    storedEarlier("p-2", "", "https://i.example/2", "https://s.example/2");
    catalog.put(product("p-3"));
    catalog.put(product("p-4"));

    assertThat(catalog.list(Optional.empty(), 2))
        .extracting(Product::id)
        .containsExactly("p-1", "p-3");
    assertThat(catalog.get("p-2")).isEmpty();
    assertThat(unreadable("title")).isPositive();
    var step = catalog.storedRowRepair().repairSome(Optional.empty(), 100);
    assertThat(step.repaired()).isEmpty();
    assertThat(step.unrepairable()).containsExactly(Map.entry("title", 1L));
  }
}
