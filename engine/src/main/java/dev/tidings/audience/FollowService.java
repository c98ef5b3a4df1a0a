package dev.tidings.audience;

import dev.tidings.InvalidInputException;
import dev.tidings.PageLimit;
import dev.tidings.Problem;
import dev.tidings.imports.BulkImporter;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportKind;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jdbi.v3.core.Jdbi;

/** What subscribers follow (brands, artists, ...): single follows, followers of a target, and bulk import. */
public final class FollowService {
  /** Largest page {@link #followers} returns. */
  public static final int MAX_PAGE = PageLimit.MAX;

  private final Jdbi jdbi;
  private final BulkImporter importer;
  private final ImportKind<Follow> follows;

  public FollowService(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.importer = new BulkImporter(jdbi, clock);
    this.follows = new ImportKind<>("follows", new FollowRows(clock), new FollowStaging());
  }

  /**
   * Records (or re-dates) a follow.
   *
   * @throws InvalidInputException when the subscriber does not exist
   */
  public Follow follow(Follow follow) {
    if (!jdbi.withHandle(handle -> FollowTable.follow(handle, follow)))
      throw new InvalidInputException(Problem.unknown(
          "subscriberId", "subscriber " + follow.subscriberId() + " does not exist"));
    return follow;
  }

  /** False when the subscriber did not follow the target. */
  public boolean unfollow(String subscriberId, FollowTarget target) {
    return jdbi.withHandle(handle -> FollowTable.delete(handle, subscriberId, target));
  }

  /** What one subscriber follows, by target type then id. */
  public List<Follow> followsOf(String subscriberId) {
    return jdbi.withHandle(handle -> FollowTable.ofSubscriber(handle, subscriberId));
  }

  /**
   * What one subscriber follows among some target types (a recommender asks for brands and
   * categories on the request path): one indexed query of the two columns it needs.
   */
  public List<FollowTarget> followedOf(String subscriberId, Set<TargetType> types) {
    return jdbi.withHandle(handle -> FollowTable.targets(handle, subscriberId, types));
  }

  /**
   * Every follow of the given target types, streamed without holding them all (a node warming its
   * recommender's memory at start); no order is promised.
   */
  public void forEachFollow(Set<TargetType> types, BiConsumer<String, FollowTarget> each) {
    jdbi.useTransaction(handle -> handle
        .createQuery("SELECT subscriber_id, target_type, target_id FROM follows"
            + " WHERE target_type = ANY(:types)")
        .bindArray("types", String.class, types.stream().map(TargetType::wire).toList())
        .setFetchSize(10_000)
        .map((rs, ctx) -> Map.entry(
            rs.getString(1),
            new FollowTarget(TargetType.ofWire(rs.getString(2)).orElseThrow(), rs.getString(3))))
        .forEach(row -> each.accept(row.getKey(), row.getValue())));
  }

  /** Followers of a target in subscriber id order, after the subscriber id {@code after} (keyset pagination). */
  public List<Follow> followers(FollowTarget target, Optional<String> after, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> FollowTable.followersPage(handle, target, after, limit));
  }

  /** The {@code limit} targets of a type with the most followers, most first. */
  public List<FollowTarget> mostFollowed(TargetType type, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            SELECT target_id FROM follows WHERE target_type = :type
             GROUP BY target_id ORDER BY count(*) DESC, target_id LIMIT :limit""")
        .bind("type", type.wire())
        .bind("limit", limit)
        .map((rows, context) -> new FollowTarget(type, rows.getString("target_id")))
        .list());
  }

  /** Bulk import from a file (.csv, .jsonl or .ndjson, optionally .gz); see {@link BulkImporter} for bad rows. */
  public ImportReport importFile(Path file, ImportOptions options) {
    return importer.run(follows, file, options);
  }

  /** Bulk import from a stream, e.g. a request body; gzip is recognised from the content. */
  public ImportReport importStream(InputStream in, Format format, ImportOptions options) {
    return importer.run(follows, in, format, options);
  }
}
