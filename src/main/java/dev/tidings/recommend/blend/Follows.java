package dev.tidings.recommend.blend;

import java.util.HashSet;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/** The brands and categories one user follows (a user who is no subscriber follows nothing). */
public record Follows(Set<String> brands, Set<String> categories) {
  public static final Follows NONE = new Follows(Set.of(), Set.of());

  public Follows {
    brands = Set.copyOf(brands);
    categories = Set.copyOf(categories);
  }

  /** Reads one user's follows: one indexed query per call. */
  @FunctionalInterface
  public interface Reader {
    Follows of(String userId);

    /** From the {@code follows} table, by its primary key's first column. */
    static Reader table(Jdbi jdbi) {
      return userId -> jdbi.withHandle(handle -> {
        var brands = new HashSet<String>();
        var categories = new HashSet<String>();
        handle
            .createQuery("""
                SELECT target_type, target_id FROM follows
                WHERE subscriber_id = :user AND target_type IN ('brand', 'category')""")
            .bind("user", userId)
            .map((rows, context) ->
                ("brand".equals(rows.getString(1)) ? brands : categories).add(rows.getString(2)))
            .list();
        return new Follows(brands, categories);
      });
    }
  }
}
