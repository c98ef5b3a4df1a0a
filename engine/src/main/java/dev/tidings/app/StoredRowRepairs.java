package dev.tidings.app;

import dev.tidings.storage.StoredRowRepair;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Runs every capability's {@link StoredRowRepair} to its end, a page at a time, and says what each
 * repaired, per table and column: the step of {@code tidings migrate} that SQL migrations cannot
 * take, as the input rules live in Java. A node does not run it at start (it would scan every table
 * on every start of every node); it reads such rows without the offending field meanwhile.
 */
public final class StoredRowRepairs {
  /** Rows per step: a page that one short statement reads by its primary key. */
  static final int BATCH = 1_000;

  private final List<StoredRowRepair> repairs;
  private final int batch;

  StoredRowRepairs(List<StoredRowRepair> repairs, int batch) {
    if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
    this.repairs = List.copyOf(repairs);
    this.batch = batch;
  }

  /**
   * What a run did, keyed {@code table.column}, in that order.
   *
   * @param repaired rows whose column was repaired
   * @param unrepairable rows left as they are (the owner says what their reads do), by the column that breaks a
   *     rule the row cannot do without
   */
  public record Report(Map<String, Long> repaired, Map<String, Long> unrepairable) {
    public Report {
      repaired = Collections.unmodifiableMap(new TreeMap<>(repaired));
      unrepairable = Collections.unmodifiableMap(new TreeMap<>(unrepairable));
    }

    public boolean isEmpty() {
      return repaired.isEmpty() && unrepairable.isEmpty();
    }

    /** One line per table and column, for the command's output. */
    public List<String> lines() {
      if (isEmpty()) return List.of("stored rows: every row reads by today's rules, none repaired");
      List<String> lines = new ArrayList<>();
      repaired.forEach((column, rows) -> lines.add(
          String.format(Locale.ROOT, "stored rows: %s repaired in %,d row(s)", column, rows)));
      unrepairable.forEach((column, rows) -> lines.add(String.format(
          Locale.ROOT,
          "stored rows: %s breaks today's rules in %,d row(s) that cannot do without it: left as"
              + " they are (the log names them and says what to do)",
          column,
          rows)));
      return lines;
    }
  }

  public Report run() {
    Map<String, Long> repaired = new TreeMap<>();
    Map<String, Long> unrepairable = new TreeMap<>();
    for (StoredRowRepair repair : repairs) {
      Optional<String> after = Optional.empty();
      while (true) {
        StoredRowRepair.Step step = repair.repairSome(after, batch);
        step.repaired()
            .forEach(
                (column, rows) -> repaired.merge(repair.table() + "." + column, rows, Long::sum));
        step.unrepairable()
            .forEach((column, rows) ->
                unrepairable.merge(repair.table() + "." + column, rows, Long::sum));
        if (step.done() || step.last().isEmpty()) break;
        after = step.last();
      }
    }
    return new Report(repaired, unrepairable);
  }
}
