package dev.tidings.notify;

import dev.tidings.WebUrl;
import dev.tidings.storage.StoredRowRepair;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clears the links of {@code content} rows an earlier version stored that {@link WebUrl} refuses now,
 * as every read showed them already (absent): the story or product is still told, without the link.
 */
final class ContentRepair implements StoredRowRepair {
  private static final Logger log = LoggerFactory.getLogger(ContentRepair.class);
  private static final List<String> LINKS = List.of("url", "image_url");

  private final Jdbi jdbi;

  ContentRepair(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  @Override
  public String table() {
    return "content";
  }

  private record Links(String id, Map<String, Optional<String>> links) {}

  @Override
  public Step repairSome(Optional<String> after, int batch) {
    return jdbi.withHandle(handle -> {
      List<Links> rows = handle
          .createQuery("SELECT id, url, image_url FROM content"
              + " WHERE (:after::text IS NULL OR id > :after) ORDER BY id LIMIT :batch")
          .bind("after", after.orElse(null))
          .bind("batch", batch)
          .map((rs, ctx) -> {
            Map<String, Optional<String>> links = new TreeMap<>();
            for (String column : LINKS)
              links.put(column, Optional.ofNullable(rs.getString(column)));
            return new Links(rs.getString("id"), links);
          })
          .list();
      Map<String, Long> repaired = new TreeMap<>();
      for (Links row : rows) {
        row.links().forEach((column, link) -> {
          Optional<String> problem = link.flatMap(WebUrl::problem);
          if (problem.isEmpty()) return;
          // guarded by the link as read: a write that replaced it since wins
          int cleared = handle
              .createUpdate("UPDATE content SET " + column + " = NULL WHERE id = :id AND " + column
                  + " = :was")
              .bind("id", row.id())
              .bind("was", link.get())
              .execute();
          if (cleared == 0) return;
          repaired.merge(column, 1L, Long::sum);
          log.info(
              "content {}: {} cleared, as it breaks today's rules ({})",
              row.id(),
              column,
              problem.get());
        });
      }
      return new Step(
          repaired,
          Map.of(),
          rows.isEmpty() ? Optional.empty() : Optional.of(rows.getLast().id()),
          rows.size() < batch);
    });
  }
}
