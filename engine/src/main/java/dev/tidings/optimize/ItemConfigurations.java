package dev.tidings.optimize;

import dev.tidings.InvalidInputException;
import dev.tidings.PageLimit;
import dev.tidings.optimize.stats.MultipleComparisons;
import dev.tidings.storage.AdvisoryLock;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Items' configurations, their counts, and the optimisation over them. Every item with configurations has
 * exactly one current configuration: the first one stored becomes current, and another becomes current
 * when asked or when the optimisation finds it better.
 */
public final class ItemConfigurations {
  /** Entries per call to {@link #record}: one transaction's worth, a few MB of request body. */
  public static final int MAX_COUNTS_PER_BATCH = 10_000;

  /** Winners written per statement when applying the optimisation. */
  private static final int APPLY_CHUNK = 10_000;

  /** Serialises applying the optimisation across nodes. */
  private static final AdvisoryLock APPLY_LOCK = AdvisoryLock.OPTIMIZE_APPLY;

  private final Jdbi jdbi;
  private final InstantSource clock;

  public ItemConfigurations(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  /** A stored configuration and whether it was new. */
  public record Stored(ItemConfiguration configuration, boolean created) {}

  /**
   * Stores or replaces a configuration's attributes (its counts stay). It becomes current when
   * {@code makeCurrent}, or when it is the item's first.
   */
  public Stored put(
      String itemId, String configurationId, Map<String, String> attributes, boolean makeCurrent) {
    Ids.item(itemId);
    Ids.configuration(configurationId);
    return jdbi.inTransaction(handle -> {
      ItemConfigurationTable.lockItem(handle, itemId);
      var now = clock.instant();
      boolean created =
          ItemConfigurationTable.put(handle, itemId, configurationId, attributes, now);
      ItemConfigurationTable.makeCurrent(handle, itemId, configurationId, !makeCurrent, now);
      var stored = find(handle, itemId, configurationId).orElseThrow();
      return new Stored(stored, created);
    });
  }

  /** The item's configurations in id order, with their counts; empty when it has none. */
  public List<ItemConfiguration> of(String itemId) {
    Ids.item(itemId);
    return jdbi.withHandle(handle -> ItemConfigurationTable.item(handle, itemId));
  }

  public Optional<ItemConfiguration> get(String itemId, String configurationId) {
    Ids.item(itemId);
    Ids.configuration(configurationId);
    return jdbi.withHandle(handle -> find(handle, itemId, configurationId));
  }

  /** What a delete did. */
  public enum Deleted {
    DELETED,
    NOT_FOUND,
    /** Refused: the current configuration goes only as the item's last one; make another current first. */
    IS_CURRENT
  }

  public Deleted delete(String itemId, String configurationId) {
    Ids.item(itemId);
    Ids.configuration(configurationId);
    return jdbi.inTransaction(handle -> {
      ItemConfigurationTable.lockItem(handle, itemId);
      var current = ItemConfigurationTable.currentOf(handle, itemId);
      if (current.isPresent() && current.get().equals(configurationId)) {
        if (ItemConfigurationTable.countOf(handle, itemId) > 1) return Deleted.IS_CURRENT;
        ItemConfigurationTable.forgetCurrent(handle, itemId);
      }
      return ItemConfigurationTable.delete(handle, itemId, configurationId)
          ? Deleted.DELETED
          : Deleted.NOT_FOUND;
    });
  }

  /** What a batch of counts added. */
  public record Recorded(int configurations, long impressions, long conversions) {}

  /**
   * Adds impressions and conversions to their configurations, summed per configuration, in one transaction:
   * every entry is counted or none is (an unknown configuration refuses the batch and is named).
   */
  public Recorded record(List<CountDelta> counts) {
    if (counts.isEmpty()) throw new InvalidInputException("no counts to record");
    if (counts.size() > MAX_COUNTS_PER_BATCH)
      throw new InvalidInputException(
          "at most %,d counts per batch, got %,d".formatted(MAX_COUNTS_PER_BATCH, counts.size()));
    // Summed and sorted by key: one write per configuration,
    // taken in the order the locks are taken.
    var sums = new TreeMap<String, long[]>();
    long impressions = 0;
    long conversions = 0;
    for (CountDelta delta : counts) {
      long[] sum =
          sums.computeIfAbsent(key(delta.itemId(), delta.configurationId()), k -> new long[2]);
      sum[0] = Math.addExact(sum[0], delta.impressions());
      sum[1] = Math.addExact(sum[1], delta.conversions());
      impressions = Math.addExact(impressions, delta.impressions());
      conversions = Math.addExact(conversions, delta.conversions());
    }
    var items = new ArrayList<String>(sums.size());
    var configurations = new ArrayList<String>(sums.size());
    var impressionDeltas = new long[sums.size()];
    var conversionDeltas = new long[sums.size()];
    int i = 0;
    for (var entry : sums.entrySet()) {
      int tab = entry.getKey().indexOf('\t');
      items.add(entry.getKey().substring(0, tab));
      configurations.add(entry.getKey().substring(tab + 1));
      impressionDeltas[i] = entry.getValue()[0];
      conversionDeltas[i] = entry.getValue()[1];
      i++;
    }
    jdbi.useTransaction(handle -> {
      var existing =
          new HashSet<>(ItemConfigurationTable.lockExisting(handle, items, configurations));
      if (existing.size() < sums.size()) {
        var missing = sums.keySet().stream()
            .filter(k -> !existing.contains(k))
            .limit(10)
            .map(k -> "item " + k.replace("\t", " has no configuration "))
            .toList();
        throw new InvalidInputException(missing);
      }
      ItemConfigurationTable.addCounts(
          handle, items, configurations, impressionDeltas, conversionDeltas);
    });
    return new Recorded(sums.size(), impressions, conversions);
  }

  /**
   * The items after {@code after} (item id order) whose best configuration changed, at most {@code limit}:
   * a page of the day's changes. With {@link OptimizationCriteria.Correction#ITEM} the scan stops as soon as
   * the page is full; with {@code CATALOGUE} every page reads the whole catalogue (its cutoff needs all), and
   * with {@code BAYES} twice (the prior, then the posteriors).
   */
  public List<ItemChange> changes(
      OptimizationCriteria criteria, Optional<String> after, int limit) {
    PageLimit.check(limit);
    return jdbi.inTransaction(handle -> {
      handle.execute("SET TRANSACTION READ ONLY");
      return decide(handle, criteria, after.orElse(""), Optional.empty(), limit);
    });
  }

  /** Every item whose best configuration changed, in item order. */
  public List<ItemChange> allChanges(OptimizationCriteria criteria) {
    return jdbi.inTransaction(handle -> {
      handle.execute("SET TRANSACTION READ ONLY");
      return decide(handle, criteria, "", Optional.empty(), Integer.MAX_VALUE);
    });
  }

  /**
   * Decides again and makes each winner current, all in one transaction: every item named in
   * {@code onlyItems} (or every item when empty) that still has a better configuration changes, or none
   * does. Deciding again at apply time means a stale list cannot install a winner that no longer wins.
   */
  public List<ItemChange> apply(
      OptimizationCriteria criteria, Optional<Collection<String>> onlyItems) {
    onlyItems.ifPresent(items -> items.forEach(Ids::item));
    return jdbi.inTransaction(handle -> {
      handle
          .createQuery("SELECT count(pg_advisory_xact_lock(:lock))")
          .bind("lock", APPLY_LOCK.key())
          .mapTo(Long.class)
          .one();
      var changes = decide(handle, criteria, "", onlyItems, Integer.MAX_VALUE);
      var now = clock.instant();
      for (int from = 0; from < changes.size(); from += APPLY_CHUNK) {
        var chunk = changes.subList(from, Math.min(changes.size(), from + APPLY_CHUNK));
        ItemConfigurationTable.makeCurrent(
            handle,
            chunk.stream().map(ItemChange::itemId).toList(),
            chunk.stream().map(ItemChange::bestConfigurationId).toList(),
            now);
      }
      return changes;
    });
  }

  private static List<ItemChange> decide(
      Handle handle,
      OptimizationCriteria criteria,
      String after,
      Optional<Collection<String>> only,
      int limit) {
    var optimizer = new ItemOptimizer(criteria);
    var changes = new ArrayList<ItemChange>();
    try {
      if (criteria.correction() == OptimizationCriteria.Correction.ITEM) {
        ItemConfigurationTable.scan(handle, after, only, (item, arms) -> {
          optimizer.decide(item, arms).ifPresent(changes::add);
          return changes.size() < limit;
        });
        return changes;
      }
      if (criteria.correction() == OptimizationCriteria.Correction.BAYES) {
        // Two reads, each in item order through the cursor: the prior needs every item before any
        // posterior. Under READ COMMITTED counts recorded between them are seen by the second read
        // only; the prior is a summary of a million items, which those few do not move.
        var bayes = new EmpiricalBayesChanges(criteria);
        ItemConfigurationTable.scan(handle, "", Optional.empty(), (item, arms) -> {
          bayes.learn(arms);
          return true;
        });
        ItemConfigurationTable.scan(handle, "", Optional.empty(), (item, arms) -> {
          bayes.consider(item, arms);
          return true;
        });
        return bayes.changes(after, only, limit);
      }
      // Across the catalogue: every tested item counts as a hypothesis, and only those whose
      // p-value is within alpha can pass Benjamini–Hochberg, so only they are kept while reading.
      long[] tested = {0};
      var candidates = new ArrayList<ItemOptimizer.Assessment>();
      ItemConfigurationTable.scan(handle, "", Optional.empty(), (item, arms) -> {
        var assessment = optimizer.assess(item, arms);
        if (assessment.isPresent()) {
          tested[0]++;
          if (assessment.get().pValue() <= criteria.alpha()) candidates.add(assessment.get());
        }
        return true;
      });
      double[] pValues =
          candidates.stream().mapToDouble(ItemOptimizer.Assessment::pValue).toArray();
      double cutoff =
          MultipleComparisons.benjaminiHochbergCutoff(pValues, tested[0], criteria.alpha());
      var wanted = only.map(HashSet::new);
      for (var assessment : candidates) {
        if (assessment.itemId().compareTo(after) <= 0) continue;
        if (wanted.isPresent() && !wanted.get().contains(assessment.itemId())) continue;
        optimizer.winner(assessment, cutoff).ifPresent(changes::add);
        if (changes.size() >= limit) break;
      }
      return changes;
    } catch (SQLException e) {
      throw new IllegalStateException("reading item configurations failed", e);
    }
  }

  private static Optional<ItemConfiguration> find(
      Handle handle, String itemId, String configurationId) {
    return ItemConfigurationTable.item(handle, itemId).stream()
        .filter(c -> c.configurationId().equals(configurationId))
        .findFirst();
  }

  private static String key(String itemId, String configurationId) {
    return itemId + '\t' + configurationId;
  }
}
