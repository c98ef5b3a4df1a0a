package dev.tidings.recommend.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.recommend.blend.BlendSettings;
import dev.tidings.recommend.blend.RecommenderSettings;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live recommender over a replayed history answers as a node that counted the same events. */
class LiveReplayTest {
  private static final long DAY = Tiny.DAY;

  /** Others make p1..p5 popular lately; "a" has a history of its own. */
  private static Interactions.Builder shop() {
    var rows = new Interactions.Builder();
    for (int other = 0; other < 20; other++)
      for (int p = 1; p <= 5; p++)
        for (int times = 0; times <= 5 - p; times++)
          rows.add("o" + other, "p" + p, "b" + times, (200 + times) * DAY, 1);
    return rows;
  }

  private static String[] ids(Interactions rows, int[] items) {
    return Arrays.stream(items).mapToObj(rows::itemId).toArray(String[]::new);
  }

  @Test
  void a_customer_is_offered_what_they_buy_again_first_then_what_is_popular() {
    var builder = shop();
    builder.add("a", "x", "a1", 100 * DAY, 1);
    builder.add("a", "x", "a2", 150 * DAY, 1);
    builder.add("a", "y", "a2", 150 * DAY, 1);
    Interactions rows = builder.build();
    try (var live = LiveReplay.of(rows, RecommenderSettings.defaults())) {
      String[] top = ids(rows, live.rank(Tiny.userIndex(rows, "a"), 4));
      assertThat(top).startsWith("x", "y");
      assertThat(top).contains("p1");
      var answer = live.answer(Tiny.userIndex(rows, "a"), 4);
      assertThat(answer.items().getFirst().reasons()).first().isEqualTo("buy_again");

      live.use(live.settings().with(new BlendSettings(true, 3, 4)));
      String[] excluded = ids(rows, live.rank(Tiny.userIndex(rows, "a"), 4));
      assertThat(excluded).doesNotContain("x", "y").startsWith("p1");
    }
  }

  @Test
  void buying_again_counts_orders_not_quantities() {
    var builder = shop();
    builder.add("a", "bulk", "a1", 150 * DAY, 144);
    builder.add("a", "often", "a1", 150 * DAY, 1);
    builder.add("a", "often", "a2", 150 * DAY + 3_600, 1);
    builder.add("a", "often", "a3", 150 * DAY + 7_200, 1);
    Interactions rows = builder.build();
    try (var live = LiveReplay.of(rows, RecommenderSettings.defaults())) {
      var top = List.of(ids(rows, live.rank(Tiny.userIndex(rows, "a"), 5)));
      assertThat(top).contains("often", "bulk");
      assertThat(top.indexOf("often")).isLessThan(top.indexOf("bulk"));
    }
  }
}
