package dev.tidings.bench;

import dev.tidings.optimize.Arm;
import dev.tidings.optimize.ItemChange;
import dev.tidings.optimize.ItemConfigurations;
import dev.tidings.optimize.ItemOptimizer;
import dev.tidings.optimize.OptimizationCriteria;
import dev.tidings.storage.Database;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;
import org.postgresql.PGConnection;
import org.postgresql.copy.PGCopyOutputStream;

/**
 * Seed 05's daily optimisation on PostgreSQL: {@code items} items with {@code configurations} configurations
 * each, whose counts summarise {@code impressions} impressions, loaded with COPY; then the day's changes
 * produced in one streaming pass (every item tested against its current configuration), and applied in one
 * transaction (both catalogue-wide ways, Benjamini–Hochberg and empirical Bayes, are timed beside per-item
 * Holm, with the power and false share of each against the planted truth). Beside it, in the same run, the seed's way: items updated one by one (per item a read, the
 * decision, and an update), timed on an evenly spread sample and extrapolated to all items.
 *
 * <p>Traffic per item is log-normal (a few items get most impressions, as in a shop); configuration 1 is
 * current and gets half of an item's impressions, the others share the rest. True rates are 2-10%; a share of
 * items has a challenger converting 1.5x better, a smaller share one converting 0.6x (worse).
 */
public final class OptimizeBench {
  /**
   * @param items catalog items
   * @param configurations configurations per item (the first is current)
   * @param impressions impressions summarised in all the counts (about; the draw is random)
   * @param sample items the seed's one-by-one way is timed on
   */
  public record Options(int items, int configurations, long impressions, int sample, long seed) {
    public Options {
      if (items < 1
          || configurations < 2
          || configurations > 9
          || impressions < items
          || sample < 1
          || sample > items)
        throw new IllegalArgumentException(
            "need items >= 1, 2..9 configurations, impressions >= items and 1 <= sample <= items");
    }
  }

  /** What was loaded: the counts' totals and the planted differences. */
  public record Loaded(
      long rows,
      long impressions,
      long conversions,
      int betterPlanted,
      int worsePlanted,
      int testable,
      double loadSeconds) {}

  /**
   * One way of producing the changes. {@code extrapolated} when timed on a sample and scaled up;
   * {@code plantedFound} of the changes are items given a better configuration, {@code elsewhere} are not
   * (-1 when not checked).
   */
  public record Way(
      String name,
      double seconds,
      long itemsTimed,
      boolean extrapolated,
      long changes,
      long plantedFound,
      long elsewhere) {}

  public record Result(
      Options options,
      String database,
      Loaded loaded,
      List<Way> ways,
      double applySeconds,
      long applied) {}

  /** Share of items with a better challenger, and with a worse one. */
  private static final double BETTER_SHARE = 0.05;

  private static final double WORSE_SHARE = 0.02;
  private static final int COPY_ITEMS_PER_STATEMENT = 50_000;

  private OptimizeBench() {}

  public static Result run(
      Database database,
      Options options,
      EventIntakeBench.ProgressDisplay progress,
      PrintStream out) {
    var jdbi = database.jdbi();
    out.printf(
        Locale.ROOT,
        "%,d items x %,d configurations, counts summarising about %,d impressions; the seed's way timed on %,d items%n",
        options.items(),
        options.configurations(),
        options.impressions(),
        options.sample());
    var better = new BitSet(options.items());
    var loaded = load(jdbi, options, better, progress, out);
    var configurations = new ItemConfigurations(jdbi, InstantSource.system());
    var ways = new ArrayList<Way>();

    var criteria = OptimizationCriteria.defaults();
    var perItem = criteria.withCorrection(OptimizationCriteria.Correction.ITEM);
    int items = options.items();
    ways.add(timed(
        "one pass, false discovery rate across items",
        "alpha 0.05: Holm per item, Benjamini-Hochberg across items, min 100 impressions per arm",
        () -> configurations.allChanges(
            criteria.withCorrection(OptimizationCriteria.Correction.CATALOGUE)),
        items,
        better,
        out));
    ways.add(timed(
        "two passes, empirical Bayes across items",
        "alpha 0.05: lift prior fitted on all items, local false discovery rates, min 100 impressions"
            + " per arm",
        () -> configurations.allChanges(
            criteria.withCorrection(OptimizationCriteria.Correction.BAYES)),
        items,
        better,
        out));
    ways.add(timed(
        "one pass, Holm per item only",
        "alpha 0.05 per item",
        () -> configurations.allChanges(perItem),
        items,
        better,
        out));
    ways.add(timed(
        "one pass, every item tested",
        "min 1 impression per arm, Holm per item: a test for every item",
        () -> configurations.allChanges(
            new OptimizationCriteria(0.05, 1, OptimizationCriteria.Correction.ITEM)),
        items,
        better,
        out));

    out.printf(
        Locale.ROOT,
        "the seed's way on %,d items: per item a read and an update...%n",
        options.sample());
    ways.add(oneByOne(jdbi, options, perItem, progress));
    out.printf(
        Locale.ROOT,
        "  %.1f s for the sample, %.1f s extrapolated to all items%n",
        ways.getLast().seconds() * options.sample() / options.items(),
        ways.getLast().seconds());

    out.println("applying the changes left (one transaction)...");
    long started = System.nanoTime();
    List<ItemChange> applied = configurations.apply(criteria, Optional.empty());
    double applySeconds = seconds(started);
    out.printf(Locale.ROOT, "  %,d made current in %.1f s%n", applied.size(), applySeconds);

    var result = new Result(
        options, database.describe(), loaded, List.copyOf(ways), applySeconds, applied.size());
    print(result, out);
    return result;
  }

  private static Way timed(
      String name,
      String what,
      Supplier<List<ItemChange>> run,
      int items,
      BitSet better,
      PrintStream out) {
    out.println("the day's changes, " + what + "...");
    long started = System.nanoTime();
    var changes = run.get();
    double seconds = seconds(started);
    long found =
        changes.stream().filter(c -> better.get(itemNumber(c.itemId()))).count();
    out.printf(
        Locale.ROOT,
        "  %,d changes in %.1f s (%,d of them items with a better configuration, %,d elsewhere)%n",
        changes.size(),
        seconds,
        found,
        changes.size() - found);
    return new Way(name, seconds, items, false, changes.size(), found, changes.size() - found);
  }

  private static Loaded load(
      Jdbi jdbi,
      Options options,
      BitSet better,
      EventIntakeBench.ProgressDisplay progress,
      PrintStream out) {
    var random = new SplittableRandom(options.seed());
    double meanPerItem = (double) options.impressions() / options.items();
    // exp(sigma * g) has mean exp(sigma^2 / 2): dividing by it keeps the expected total at the
    // target.
    double sigma = 1.2;
    double logMeanCorrection = sigma * sigma / 2;
    long[] totals = new long[3]; // rows, impressions, conversions
    int[] planted = new int[3]; // better, worse, testable
    String now = Instant.now().toString();
    long started = System.nanoTime();
    try (Tracker tracker = progress.start("counts (COPY)", options.items())) {
      for (int from = 0; from < options.items(); from += COPY_ITEMS_PER_STATEMENT) {
        int first = from;
        int last = Math.min(options.items(), from + COPY_ITEMS_PER_STATEMENT);
        var configurationRows = new StringBuilder(128 * (last - first) * options.configurations());
        var currentRows = new StringBuilder(32 * (last - first));
        for (int item = first; item < last; item++) {
          String id = itemId(item);
          long itemImpressions = Math.max(
              1,
              Math.round(
                  meanPerItem * Math.exp(sigma * random.nextGaussian() - logMeanCorrection)));
          double baseRate = 0.02 + 0.08 * random.nextDouble();
          double draw = random.nextDouble();
          int changed = 2 + random.nextInt(options.configurations() - 1);
          double factor = 1.0;
          if (draw < BETTER_SHARE) {
            factor = 1.5;
            better.set(item);
            planted[0]++;
          } else if (draw < BETTER_SHARE + WORSE_SHARE) {
            factor = 0.6;
            planted[1]++;
          }
          long currentImpressions = (itemImpressions + 1) / 2;
          long rest = itemImpressions - currentImpressions;
          int challengers = options.configurations() - 1;
          boolean testable = currentImpressions >= OptimizationCriteria.DEFAULT_MIN_IMPRESSIONS;
          boolean anyChallenger = false;
          for (int c = 1; c <= options.configurations(); c++) {
            long shown = c == 1
                ? currentImpressions
                : rest / challengers + (c - 2 < rest % challengers ? 1 : 0);
            double rate = c == changed ? baseRate * factor : baseRate;
            long converted = binomial(shown, rate, random);
            anyChallenger |= c > 1 && shown >= OptimizationCriteria.DEFAULT_MIN_IMPRESSIONS;
            configurationRows
                .append(id)
                .append("\tc")
                .append(c)
                .append("\t{\"image\": \"https://cdn.shop.test/")
                .append(id)
                .append("/c")
                .append(c)
                .append(".jpg\"}\t")
                .append(shown)
                .append('\t')
                .append(converted)
                .append('\t')
                .append(now)
                .append('\t')
                .append(now)
                .append('\n');
            totals[0]++;
            totals[1] += shown;
            totals[2] += converted;
          }
          if (testable && anyChallenger) planted[2]++;
          currentRows.append(id).append("\tc1\t").append(now).append('\n');
        }
        jdbi.useHandle(handle -> {
          copy(
              handle.getConnection(),
              "COPY item_configurations (item_id, configuration_id, attributes, impressions, conversions,"
                  + " created_at, updated_at) FROM STDIN",
              configurationRows);
          copy(
              handle.getConnection(),
              "COPY item_current_configurations (item_id, configuration_id, changed_at) FROM STDIN",
              currentRows);
        });
        tracker.stepTo(last);
      }
    }
    // Autovacuum would have done this by the next day; without it the first read sets every row's
    // hint bits.
    jdbi.useHandle(handle ->
        handle.execute("VACUUM (ANALYZE) item_configurations, item_current_configurations"));
    var loaded = new Loaded(
        totals[0], totals[1], totals[2], planted[0], planted[1], planted[2], seconds(started));
    out.printf(
        Locale.ROOT,
        "loaded %,d configurations (%,d impressions, %,d conversions) in %.1f s; %,d items with a better"
            + " configuration planted, %,d with a worse one; %,d items have 100+ impressions on the current"
            + " configuration and a challenger%n",
        loaded.rows(),
        loaded.impressions(),
        loaded.conversions(),
        loaded.loadSeconds(),
        loaded.betterPlanted(),
        loaded.worsePlanted(),
        loaded.testable());
    return loaded;
  }

  /**
   * The seed's way: every item on its own, a read of its configurations and an update of its current one,
   * each a statement of its own (autocommit), prepared once. Timed on every n-th item, scaled to all.
   */
  private static Way oneByOne(
      Jdbi jdbi,
      Options options,
      OptimizationCriteria criteria,
      EventIntakeBench.ProgressDisplay progress) {
    var optimizer = new ItemOptimizer(criteria);
    int step = Math.max(1, options.items() / options.sample());
    long[] changes = {0};
    long started = System.nanoTime();
    jdbi.useHandle(handle -> {
      Connection connection = handle.getConnection();
      try (PreparedStatement read = connection.prepareStatement("""
              SELECT c.configuration_id, c.configuration_id = cur.configuration_id, c.impressions, c.conversions
                FROM item_configurations c
                JOIN item_current_configurations cur ON cur.item_id = c.item_id
               WHERE c.item_id = ?
               ORDER BY c.configuration_id""");
          PreparedStatement update = connection.prepareStatement(
              "UPDATE item_current_configurations SET configuration_id = ?, changed_at = now() WHERE item_id = ?");
          Tracker tracker = progress.start("one by one", options.sample())) {
        for (int n = 0; n < options.sample(); n++) {
          String id = itemId(n * step);
          read.setString(1, id);
          var arms = new ArrayList<Arm>(options.configurations());
          String current = "";
          try (var rows = read.executeQuery()) {
            while (rows.next()) {
              var arm = new Arm(
                  rows.getString(1),
                  rows.getBoolean(2),
                  Arm.counted(rows.getLong(3), rows.getLong(4)));
              if (arm.current()) current = arm.configurationId();
              arms.add(arm);
            }
          }
          var change = optimizer.decide(id, arms);
          if (change.isPresent()) changes[0]++;
          update.setString(1, change.map(ItemChange::bestConfigurationId).orElse(current));
          update.setString(2, id);
          update.executeUpdate();
          if (n % 1_000 == 0) tracker.stepTo(n);
        }
        tracker.stepTo(options.sample());
      } catch (SQLException e) {
        throw new IllegalStateException("the one-by-one way failed", e);
      }
    });
    double sampleSeconds = seconds(started);
    return new Way(
        "one by one (seed)",
        sampleSeconds * options.items() / options.sample(),
        options.sample(),
        true,
        Math.round((double) changes[0] * options.items() / options.sample()),
        -1,
        -1);
  }

  private static void copy(Connection connection, String sql, CharSequence rows) {
    try (var stream = new PGCopyOutputStream(connection.unwrap(PGConnection.class), sql, 1 << 20);
        Writer writer = new OutputStreamWriter(stream, StandardCharsets.UTF_8)) {
      writer.append(rows);
    } catch (SQLException e) {
      throw new IllegalStateException("COPY failed: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A binomial draw: counting the successes by geometric gaps between them when few are expected (exact),
   * the normal approximation when many are.
   */
  static long binomial(long trials, double rate, SplittableRandom random) {
    double mean = trials * rate;
    if (mean < 50) {
      double logFailure = Math.log1p(-rate);
      long successes = 0;
      long position = 0;
      while (true) {
        position += (long) Math.floor(Math.log(1 - random.nextDouble()) / logFailure) + 1;
        if (position > trials) return successes;
        successes++;
      }
    }
    long drawn = Math.round(mean + Math.sqrt(mean * (1 - rate)) * random.nextGaussian());
    return Math.clamp(drawn, 0, trials);
  }

  private static String itemId(int item) {
    return "item-%07d".formatted(item);
  }

  private static int itemNumber(String itemId) {
    return Integer.parseInt(itemId.substring("item-".length()));
  }

  private static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }

  private static void print(Result result, PrintStream out) {
    out.println();
    out.printf(
        Locale.ROOT,
        "%-44s %9s %16s %9s %9s %10s %7s %7s%n",
        "way",
        "seconds",
        "items timed",
        "changes",
        "planted",
        "elsewhere",
        "power",
        "false");
    int planted = result.loaded().betterPlanted();
    for (Way way : result.ways()) {
      boolean checked = way.plantedFound() >= 0;
      out.printf(
          Locale.ROOT,
          "%-44s %9.1f %16s %9s %9s %10s %7s %7s%n",
          way.name(),
          way.seconds(),
          "%,d".formatted(way.itemsTimed())
              + (way.extrapolated()
                  ? " (x" + result.options().items() / way.itemsTimed() + ")"
                  : ""),
          (way.extrapolated() ? "~" : "") + "%,d".formatted(way.changes()),
          checked ? "%,d".formatted(way.plantedFound()) : "",
          checked ? "%,d".formatted(way.elsewhere()) : "",
          checked ? percent(way.plantedFound(), planted) : "",
          checked ? percent(way.elsewhere(), way.changes()) : "");
    }
    out.printf(
        Locale.ROOT,
        "%,d items were given a better configuration (%,d items in all have 100+ impressions on the current"
            + " configuration and a challenger); power is the share of them named, false the share of the"
            + " changes that are not among them; applying the changes left: %,d in %.1f s%n",
        result.loaded().betterPlanted(),
        result.loaded().testable(),
        result.applied(),
        result.applySeconds());
  }

  private static String percent(long part, long whole) {
    return whole == 0 ? "-" : String.format(Locale.ROOT, "%.2f%%", 100.0 * part / whole);
  }
}
