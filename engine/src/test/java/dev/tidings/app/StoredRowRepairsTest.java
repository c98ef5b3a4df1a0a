package dev.tidings.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.storage.StoredRowRepair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The repair step of tidings migrate: every table to its end, page after page, summed per column. */
class StoredRowRepairsTest {
  /** Rows "r00".."r(n-1)"; every third one had its {@code column} repaired, each fifth is unrepairable. */
  private static final class Pages implements StoredRowRepair {
    private final String table;
    private final int rows;
    final List<Optional<String>> asked = new ArrayList<>();

    Pages(String table, int rows) {
      this.table = table;
      this.rows = rows;
    }

    @Override
    public String table() {
      return table;
    }

    @Override
    public Step repairSome(Optional<String> after, int batch) {
      asked.add(after);
      int from = after.map(id -> Integer.parseInt(id.substring(1)) + 1).orElse(0);
      int to = Math.min(rows, from + batch);
      long repaired = 0;
      long unrepairable = 0;
      for (int i = from; i < to; i++) {
        if (i % 3 == 0) repaired++;
        if (i % 5 == 0) unrepairable++;
      }
      return new Step(
          repaired == 0 ? Map.of() : Map.of("landing_url", repaired),
          unrepairable == 0 ? Map.of() : Map.of("title", unrepairable),
          to > from ? Optional.of(String.format("r%02d", to - 1)) : Optional.empty(),
          to - from < batch);
    }
  }

  @Test
  void each_table_is_repaired_to_its_end_in_pages_and_reported_per_column() {
    var products = new Pages("products", 10);
    var content = new Pages("content", 0);

    var report = new StoredRowRepairs(List.of(products, content), 4).run();

    assertThat(products.asked)
        .containsExactly(Optional.empty(), Optional.of("r03"), Optional.of("r07"));
    assertThat(content.asked).containsExactly(Optional.empty());
    assertThat(report.repaired()).containsExactly(Map.entry("products.landing_url", 4L));
    assertThat(report.unrepairable()).containsExactly(Map.entry("products.title", 2L));
    assertThat(report.lines())
        .containsExactly(
            "stored rows: products.landing_url repaired in 4 row(s)",
            "stored rows: products.title breaks today's rules in 2 row(s) that cannot do without"
                + " it: left as they are (the log names them and says what to do)");
  }

  @Test
  void nothing_to_repair_says_so_in_one_line() {
    var report = new StoredRowRepairs(List.of(new Pages("products", 0)), 4).run();

    assertThat(report.isEmpty()).isTrue();
    assertThat(report.lines())
        .containsExactly("stored rows: every row reads by today's rules, none repaired");
  }
}
