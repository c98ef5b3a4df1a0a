package dev.tidings.audience;

import dev.tidings.InvalidInputException;
import dev.tidings.storage.StoredRowRepair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs the {@code subscribers} rows an earlier version stored that today's rules refuse, as {@link
 * StoredSubscriber} reads them: a name, city or country is cleared and a time zone set to UTC, what
 * every read showed already. A row whose id breaks today's rule is reported, not changed (its reads
 * fail): the shop deletes it. The log names rows by id, never by a personal value.
 */
final class SubscriberRepair implements StoredRowRepair {
  private static final Logger log = LoggerFactory.getLogger(SubscriberRepair.class);
  private static final Map<String, String> REPAIRED = Map.of(
      "name", "NULL",
      "city", "NULL",
      "country", "NULL",
      "time_zone", "'UTC'");

  private final Jdbi jdbi;

  SubscriberRepair(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return StoredSubscriber.TABLE;
  }

  /** A checked row, or why it cannot be read, and its repairable columns as they were read. */
  private record Checked(
      String id,
      Optional<StoredSubscriber> stored,
      Optional<String> unreadable,
      Map<String, Optional<String>> read) {}

  @Override
  public Step repairSome(Optional<String> after, int batch) {
    return jdbi.withHandle(handle -> {
      List<Checked> rows = handle
          .createQuery("SELECT " + SubscriberTable.READ_COLUMNS
              + " FROM subscribers WHERE (:after::text IS NULL OR id > :after) ORDER BY id LIMIT"
              + " :batch")
          .bind("after", after.orElse(null))
          .bind("batch", batch)
          .map((rs, ctx) -> {
            Map<String, Optional<String>> read = new TreeMap<>();
            for (String column : REPAIRED.keySet())
              read.put(column, Optional.ofNullable(rs.getString(column)));
            try {
              return new Checked(
                  rs.getString("id"), Optional.of(StoredSubscriber.of(rs)), Optional.empty(), read);
            } catch (InvalidInputException e) {
              return new Checked(
                  rs.getString("id"),
                  Optional.empty(),
                  Optional.of(String.join("; ", e.problems())),
                  read);
            }
          })
          .list();
      Map<String, Long> repaired = new TreeMap<>();
      Map<String, Long> unrepairable = new TreeMap<>();
      for (Checked row : rows) {
        row.unreadable().ifPresent(reason -> {
          unrepairable.merge("id", 1L, Long::sum);
          log.warn(
              "subscribers {}: breaks today's rules ({}); left as it is: delete it",
              row.id(),
              reason);
        });
        if (row.stored().isEmpty() || row.stored().get().dropped().isEmpty()) continue;
        var columns = new TreeSet<String>();
        for (var finding : row.stored().get().dropped()) columns.add(finding.column());
        if (!repair(handle, row.id(), columns, row.read())) continue;
        for (var finding : row.stored().get().dropped()) {
          repaired.merge(finding.column(), 1L, Long::sum);
          log.info(
              "subscribers {}: {} {}, as it breaks today's rules ({})",
              row.id(),
              finding.column(),
              finding.column().equals("time_zone") ? "set to UTC" : "cleared",
              finding.reason());
        }
      }
      return new Step(
          repaired,
          unrepairable,
          rows.isEmpty() ? Optional.empty() : Optional.of(rows.getLast().id()),
          rows.size() < batch);
    });
  }

  /** One guarded statement: a write that changed one of the columns since the read wins. */
  private static boolean repair(
      Handle handle, String id, TreeSet<String> columns, Map<String, Optional<String>> read) {
    List<String> sets = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    for (String column : columns) {
      sets.add(column + " = " + REPAIRED.get(column));
      unchanged.add(column + " IS NOT DISTINCT FROM :was_" + column);
    }
    var update = handle
        .createUpdate("UPDATE subscribers SET " + String.join(", ", sets) + " WHERE id = :id AND "
            + String.join(" AND ", unchanged))
        .bind("id", id);
    for (String column : columns)
      update.bind("was_" + column, read.getOrDefault(column, Optional.empty()).orElse(null));
    return update.execute() == 1;
  }
}
