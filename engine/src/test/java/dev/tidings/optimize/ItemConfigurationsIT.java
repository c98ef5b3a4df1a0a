package dev.tidings.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Item configurations, their counts and the optimisation on the real PostgreSQL. */
class ItemConfigurationsIT {
  private Database database;
  private ItemConfigurations configurations;

  @BeforeEach
  void open() {
    database = TestDatabases.real();
    configurations = new ItemConfigurations(database.jdbi(), InstantSource.system());
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void the_first_configuration_is_current_until_another_is_made_current() {
    var first = configurations.put("boots", "photo", Map.of("image", "boots.jpg"), false);
    assertThat(first.created()).isTrue();
    assertThat(first.configuration().current()).isTrue();
    var second =
        configurations.put("boots", "video", Map.of("image", "boots.mp4", "position", "2"), false);
    assertThat(second.configuration().current()).isFalse();
    assertThat(currentOf("boots")).isEqualTo("photo");

    var replaced = configurations.put("boots", "video", Map.of("image", "boots.webm"), true);
    assertThat(replaced.created()).isFalse();
    assertThat(replaced.configuration().attributes()).isEqualTo(Map.of("image", "boots.webm"));
    assertThat(currentOf("boots")).isEqualTo("video");
    assertThat(configurations.of("boots"))
        .extracting(ItemConfiguration::configurationId)
        .containsExactly("photo", "video");
    assertThat(configurations.of("nothing")).isEmpty();
  }

  // The API's clients write one item's configurations
  // from several threads at once: every call answers.
  @Test
  void concurrent_puts_and_deletes_of_one_items_configurations_all_answer() throws Exception {
    var failures = new ConcurrentLinkedQueue<Throwable>();
    var stop = new AtomicBoolean();
    var threads = new ArrayList<Thread>();
    for (int t = 0; t < 6; t++) {
      int thread = t;
      threads.add(Thread.ofPlatform().start(() -> {
        for (int i = 0; !stop.get(); i++) {
          try {
            if (thread % 3 == 2) configurations.delete("race", "c-" + (i % 2));
            else configurations.put("race", "c-" + ((i + thread) % 2), Map.of(), i % 2 == 0);
          } catch (Throwable e) {
            failures.add(e);
            stop.set(true);
          }
        }
      }));
    }
    Thread.sleep(3_000);
    stop.set(true);
    for (Thread thread : threads) thread.join();
    assertThat(failures).isEmpty();
  }

  @Test
  void the_current_configuration_is_deleted_only_as_the_last_one() {
    configurations.put("hat", "a", Map.of(), false);
    configurations.put("hat", "b", Map.of(), false);
    assertThat(configurations.delete("hat", "a")).isEqualTo(ItemConfigurations.Deleted.IS_CURRENT);
    assertThat(configurations.delete("hat", "b")).isEqualTo(ItemConfigurations.Deleted.DELETED);
    assertThat(configurations.delete("hat", "b")).isEqualTo(ItemConfigurations.Deleted.NOT_FOUND);
    assertThat(configurations.delete("hat", "a")).isEqualTo(ItemConfigurations.Deleted.DELETED);
    assertThat(configurations.of("hat")).isEmpty();
    // The item starts again: its next configuration is current.
    assertThat(configurations.put("hat", "c", Map.of(), false).configuration().current())
        .isTrue();
  }

  @Test
  void counts_are_summed_per_configuration_and_a_batch_with_an_unknown_one_counts_nothing() {
    configurations.put("scarf", "a", Map.of(), false);
    configurations.put("scarf", "b", Map.of(), false);
    var recorded = configurations.record(List.of(
        new CountDelta("scarf", "a", 10, 1),
        new CountDelta("scarf", "a", 5, 2),
        new CountDelta("scarf", "b", 7, 0)));
    assertThat(recorded).isEqualTo(new ItemConfigurations.Recorded(2, 22, 3));
    assertThatThrownBy(() -> configurations.record(
            List.of(new CountDelta("scarf", "a", 100, 100), new CountDelta("scarf", "zz", 1, 0))))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("item scarf has no configuration zz");
    var a = configurations.get("scarf", "a").orElseThrow();
    assertThat(a.impressions()).isEqualTo(15);
    assertThat(a.conversions()).isEqualTo(3);
    assertThat(configurations.get("scarf", "b").orElseThrow().impressions()).isEqualTo(7);
  }

  @Test
  void
      the_optimisation_names_exactly_the_items_with_a_better_configuration_and_applying_makes_them_current() {
    // 300 items, three configurations each, counts drawn from known rates: every tenth item has a
    // challenger converting 6% against 3%, the rest convert at 3% everywhere.
    var random = new SplittableRandom(5);
    var counts = new ArrayList<CountDelta>();
    var improved = new ArrayList<String>();
    for (int i = 0; i < 300; i++) {
      String item = "item-%03d".formatted(i);
      for (String configuration : List.of("a", "b", "c"))
        configurations.put(item, configuration, Map.of(), false);
      boolean better = i % 10 == 0;
      if (better) improved.add(item);
      for (String configuration : List.of("a", "b", "c")) {
        double rate = better && configuration.equals("c") ? 0.06 : 0.03;
        long impressions = 3_000;
        long conversions = 0;
        for (int n = 0; n < impressions; n++) if (random.nextDouble() < rate) conversions++;
        counts.add(new CountDelta(item, configuration, impressions, conversions));
      }
    }
    configurations.record(counts);

    var perItem =
        OptimizationCriteria.defaults().withCorrection(OptimizationCriteria.Correction.ITEM);
    var all = configurations.allChanges(perItem);
    var named = all.stream().map(ItemChange::itemId).toList();
    // Power at 3,000 per arm for 3% against 6% is above 99%. Of the 270 items without a better
    // configuration, Holm keeps a false winner to at most 2.5% of them (a false winner must also be
    // on the higher side): about 7 expected, more than 15 has a chance below 0.1%.
    assertThat(named).containsAll(improved);
    assertThat(named.size() - improved.size()).isLessThanOrEqualTo(15);
    assertThat(all.stream().filter(c -> improved.contains(c.itemId())))
        .allSatisfy(c -> assertThat(c.bestConfigurationId()).isEqualTo("c"));

    // Pages of 7 walk the same list.
    var paged = new ArrayList<String>();
    Optional<String> after = Optional.empty();
    while (true) {
      var page = configurations.changes(perItem, after, 7);
      page.forEach(c -> paged.add(c.itemId()));
      if (page.size() < 7) break;
      after = Optional.of(page.getLast().itemId());
    }
    assertThat(paged).isEqualTo(named);

    // The empirical-Bayes way reads the same catalogue twice (prior, then posteriors): with a
    // doubled rate on 3,000 impressions an arm every improved item is beyond doubt, and the mean
    // chance of a false change stays within alpha.
    var bayes = configurations.allChanges(
        OptimizationCriteria.defaults().withCorrection(OptimizationCriteria.Correction.BAYES));
    assertThat(bayes).extracting(ItemChange::itemId).containsAll(improved);
    assertThat(bayes.size() - improved.size()).isLessThanOrEqualTo(2);
    assertThat(bayes).allSatisfy(c -> assertThat(c.notBetter()).isLessThan(0.5));
    assertThat(configurations.changes(
            OptimizationCriteria.defaults().withCorrection(OptimizationCriteria.Correction.BAYES),
            Optional.of(bayes.get(2).itemId()),
            2))
        .isEqualTo(bayes.subList(3, 5));

    var onlyOne = configurations.apply(
        OptimizationCriteria.defaults(), Optional.of(List.of("item-010", "item-011")));
    assertThat(onlyOne).extracting(ItemChange::itemId).containsExactly("item-010");
    assertThat(currentOf("item-010")).isEqualTo("c");
    assertThat(currentOf("item-020")).isEqualTo("a");

    var applied = configurations.apply(perItem, Optional.empty());
    assertThat(applied).hasSize(named.size() - 1);
    for (String item : named) assertThat(currentOf(item)).isNotEqualTo("a");
    // The new current configurations are the best: nothing is left to change.
    assertThat(configurations.allChanges(perItem)).isEmpty();
  }

  private String currentOf(String item) {
    return configurations.of(item).stream()
        .filter(ItemConfiguration::current)
        .map(ItemConfiguration::configurationId)
        .findFirst()
        .orElseThrow();
  }
}
