package dev.tidings.catalog;

import dev.tidings.storage.StoredRowRepair;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs the {@code products} rows an earlier version stored that today's rules refuse, as {@link
 * StoredProduct} reads them: a field the product can do without is cleared (a URL, the sale price,
 * brand, category or item group set to NULL; attributes to none), which is what every read showed
 * already, so nothing an email or the API shows changes. Clearing, not marking the product
 * unavailable: it stays on sale and in emails, and a later unavailable-then-available change would
 * tell its brand's followers it is back in stock, which it never left. {@code updated_at} stays, as
 * the shop did not write the row. A row that breaks the rule of a field it cannot do without (id,
 * title, price, currency) is reported, not changed: reads leave it out; the shop puts it right by
 * importing the product again or deleting it.
 */
final class ProductRepair implements StoredRowRepair {
  private static final Logger log = LoggerFactory.getLogger(ProductRepair.class);
  /** The columns a repair may clear, with what clears them. */
  private static final Map<String, String> CLEARED = Map.of(
      "image_url", "NULL",
      "landing_url", "NULL",
      "sale_price", "NULL",
      "brand", "NULL",
      "category", "NULL",
      "item_group_id", "NULL",
      "attributes", "'{}'::jsonb");

  private final Jdbi jdbi;

  ProductRepair(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return StoredProduct.TABLE;
  }

  @Override
  public Step repairSome(Optional<String> after, int batch) {
    return jdbi.withHandle(handle -> {
      List<Checked> rows = handle
          .createQuery("SELECT " + ProductTable.READ_COLUMNS + ", " + guards()
              + " FROM products WHERE (:after::text IS NULL OR id > :after) ORDER BY id LIMIT"
              + " :batch")
          .bind("after", after.orElse(null))
          .bind("batch", batch)
          .map((rs, ctx) -> new Checked(StoredProduct.of(rs), guardValues(rs)))
          .list();
      Map<String, Long> repaired = new TreeMap<>();
      Map<String, Long> unrepairable = new TreeMap<>();
      for (Checked row : rows) {
        StoredProduct stored = row.stored();
        stored.unreadable().ifPresent(finding -> {
          unrepairable.merge(finding.column(), 1L, Long::sum);
          log.warn(
              "products {}: {} breaks today's rules ({}); left as it is, and left out of every"
                  + " read: import the product again or delete it",
              stored.id(),
              finding.column(),
              finding.reason());
        });
        if (stored.dropped().isEmpty()) continue;
        if (clear(handle, stored, row.guards())) {
          for (var finding : stored.dropped()) {
            repaired.merge(finding.column(), 1L, Long::sum);
            log.info(
                "products {}: {} cleared, as it breaks today's rules ({})",
                stored.id(),
                finding.column(),
                finding.reason());
          }
        }
      }
      return new Step(
          repaired,
          unrepairable,
          rows.isEmpty()
              ? Optional.empty()
              : Optional.of(rows.getLast().stored().id()),
          rows.size() < batch);
    });
  }

  /** A checked row and its columns as text, which a repair's write compares before it clears. */
  private record Checked(StoredProduct stored, Map<String, Optional<String>> guards) {}

  private static String guards() {
    return String.join(
        ", ",
        CLEARED.keySet().stream().map(c -> c + "::text AS guard_" + c).sorted().toList());
  }

  private static Map<String, Optional<String>> guardValues(ResultSet rs) throws SQLException {
    Map<String, Optional<String>> values = new TreeMap<>();
    for (String column : CLEARED.keySet())
      values.put(column, Optional.ofNullable(rs.getString("guard_" + column)));
    return values;
  }

  /**
   * Clears the row's dropped columns in one statement, unless a write changed one of them since the
   * read (the write's value went through today's rules); true when it cleared them.
   */
  private static boolean clear(
      Handle handle, StoredProduct stored, Map<String, Optional<String>> read) {
    Set<String> columns = new TreeSet<>();
    for (var finding : stored.dropped()) columns.add(finding.column());
    List<String> sets = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    for (String column : columns) {
      sets.add(column + " = " + CLEARED.get(column));
      unchanged.add(column + "::text IS NOT DISTINCT FROM :was_" + column);
    }
    var update = handle
        .createUpdate("UPDATE products SET " + String.join(", ", sets) + " WHERE id = :id AND "
            + String.join(" AND ", unchanged))
        .bind("id", stored.id());
    for (String column : columns)
      update.bind("was_" + column, read.getOrDefault(column, Optional.empty()).orElse(null));
    return update.execute() == 1;
  }
}
