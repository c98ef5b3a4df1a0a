package dev.tidings.recommend.blend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommendations.Recommended;
import java.time.Instant;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class BlenderTest {
  /**
   * 30 products over 3 brands and 3 categories, p0 the most popular, p29 the least; the weights fixed
   * here (popularity light, co-occurrence and EASE heavy), so the figures below follow from the
   * blending, whatever the defaults become.
   */
  private static Shop shop() {
    var shop = new Shop();
    for (int i = 0; i < 30; i++)
      shop.product("p" + i, "brand" + (i % 3), "cat" + (i / 10)).popular("p" + i, 0, 100 - i);
    return shop.set(Algorithm.POPULARITY, new AlgorithmSettings(true, 0.05, Map.of()))
        .set(Algorithm.CO_OCCURRENCE, new AlgorithmSettings(true, 0.6, Map.of()))
        .set(Algorithm.EASE, new AlgorithmSettings(true, 0.5, Map.of()));
  }

  private static Recommended find(Recommendations answer, String id) {
    return answer.items().stream()
        .filter(item -> item.productId().equals(id))
        .findFirst()
        .orElseThrow(() -> new AssertionError(id + " not in " + answer.productIds()));
  }

  @Test
  void answers_k_distinct_products_filled_from_popularity_for_an_unknown_user() {
    var answer = shop().blender().recommend(Shop.ask("nobody", 10, Set.of()));
    assertThat(answer.items()).hasSize(10);
    assertThat(answer.productIds()).doesNotHaveDuplicates();
    assertThat(answer.items())
        .allSatisfy(item -> assertThat(item.reasons()).containsExactly("popularity"));
  }

  @Test
  void a_product_put_there_by_several_algorithms_names_them_all_the_heaviest_first() {
    var shop = shop()
        .viewed("u", "p21", 0, 5) // recently viewed, and the seed of co-occurrence
        .coViewed("p21", "p20", 4)
        .bought("u", "p25", 0, 2);
    var answer = shop.blender().recommend(Shop.ask("u", 10, Set.of()));
    Recommended p20 = find(answer, "p20");
    // a neighbour of p21 (co-occurrence 0.6, EASE 0.5) and trending (popularity 0.05)
    assertThat(p20.reasons()).containsExactly("co_occurrence", "ease", "popularity");
    assertThat(p20.algorithm()).isEqualTo("co_occurrence");
    assertThat(find(answer, "p21").reasons()).first().isEqualTo("recently_viewed");
    assertThat(find(answer, "p25").reasons()).first().isEqualTo("buy_again");
    // p20: 0.6 + 0.5 + 0.05 * 80/100 = 1.14; p25 (bought): 1.0 + 0.05 * 75/100 = 1.04
    assertThat(answer.productIds().subList(0, 2)).containsExactly("p20", "p25");
    assertThat(answer.items().getFirst().score()).isCloseTo(1.14, Offset.offset(1e-9));
  }

  @Test
  void a_product_one_algorithm_offers_is_weighed_by_every_other_beyond_their_own_best() {
    var shop = shop();
    for (int i = 30; i < 40; i++) shop.product("p" + i, "other", "cat9").popular("p" + i, 0, 10);
    shop.bought("u", "p39", 0, 1);
    // popularity offers its own best 30 (p0..p29): p39, bought, is outside them
    var answer = shop.blender().recommend(Shop.ask("u", 10, Set.of()));
    Recommended p39 = find(answer, "p39");
    assertThat(p39.reasons()).containsExactly("buy_again", "popularity");
    // buy-again's best (1.0) plus popularity's 10 of its best 100, times its weight 0.05
    assertThat(p39.score()).isCloseTo(1.0 + 0.05 * 10 / 100, Offset.offset(1e-9));
    assertThat(p39.shares().get(0)).isCloseTo(1.0, Offset.offset(1e-9));
    assertThat(p39.shares().get(1)).isCloseTo(0.005, Offset.offset(1e-9));
  }

  @Test
  void weights_decide_the_order_and_a_disabled_algorithm_is_never_a_reason() {
    var shop = shop().viewed("u", "p28", 0, 1).bought("u", "p29", 0, 1);
    var first = shop.blender().recommend(Shop.ask("u", 3, Set.of()));
    assertThat(first.productIds().subList(0, 2)).containsExactly("p29", "p28");

    shop.set(Algorithm.BUY_AGAIN, new AlgorithmSettings(true, 0.1, Map.of()));
    var reweighted = shop.blender().recommend(Shop.ask("u", 3, Set.of()));
    assertThat(reweighted.productIds().subList(0, 2)).containsExactly("p28", "p29");

    shop.set(Algorithm.BUY_AGAIN, new AlgorithmSettings(false, 1, Map.of()));
    var disabled = shop.blender().recommend(Shop.ask("u", 10, Set.of()));
    assertThat(disabled.items())
        .noneSatisfy(item -> assertThat(item.reasons()).contains("buy_again"));
  }

  @Test
  void an_experiment_arm_blends_only_its_algorithms() {
    var shop = shop().viewed("u", "p21", 0, 5).coViewed("p21", "p20", 4).bought("u", "p25", 0, 2);
    var popularOnly =
        shop.blender().recommend(Shop.ask("u", 10, Set.of()), EnumSet.of(Algorithm.POPULARITY));
    assertThat(popularOnly.items())
        .allSatisfy(item -> assertThat(item.reasons()).containsExactly("popularity"));
    var neighbours =
        shop.blender().recommend(Shop.ask("u", 10, Set.of()), EnumSet.of(Algorithm.CO_OCCURRENCE));
    assertThat(find(neighbours, "p20").reasons()).containsExactly("co_occurrence");
    assertThat(neighbours.items())
        .noneSatisfy(item -> assertThat(item.reasons()).contains("buy_again"));
  }

  @Test
  void a_request_carrying_an_arm_from_its_token_blends_only_the_arms_algorithms() {
    var shop = shop().viewed("u", "p21", 0, 5).coViewed("p21", "p20", 4).bought("u", "p25", 0, 2);
    var plain = Shop.ask("u", 10, Set.of());
    var armed = new RecommendationRequest(
        "u",
        10,
        Set.of(),
        Optional.empty(),
        Locale.ROOT,
        plain.deadline(),
        Algorithm.armOf(EnumSet.of(Algorithm.CO_OCCURRENCE)));

    var fromArm = shop.blender().recommend(armed);
    assertThat(fromArm)
        .isEqualTo(shop.blender().recommend(plain, EnumSet.of(Algorithm.CO_OCCURRENCE)));
    assertThat(fromArm.items())
        .noneSatisfy(item -> assertThat(item.reasons()).contains("buy_again"));
    assertThat(find(fromArm, "p20").reasons()).containsExactly("co_occurrence");
    assertThat(shop.blender().recommend(plain).items())
        .anySatisfy(item -> assertThat(item.reasons()).contains("buy_again"));
  }

  @Test
  void an_arm_round_trips_through_its_bits_and_unknown_bits_are_ignored() {
    for (Algorithm algorithm : Algorithm.values())
      assertThat(Algorithm.ofArm(Algorithm.armOf(EnumSet.of(algorithm))))
          .containsExactly(algorithm);
    var two = EnumSet.of(Algorithm.POPULARITY, Algorithm.EASE);
    assertThat(Algorithm.ofArm(Algorithm.armOf(two))).isEqualTo(two);
    assertThat(Algorithm.armOf(Set.of())).isZero();
    assertThat(Algorithm.ofArm(1 << 15)).isEmpty();
  }

  @Test
  void unavailable_excluded_and_when_configured_bought_products_are_never_offered() {
    var shop = shop()
        .product("sold-out", "brand0", "cat0", false, Shop.NOW)
        .popular("sold-out", 0, 1000)
        .viewed("u", "sold-out", 0, 10)
        .bought("u", "p0", 0, 3);
    var kept = shop.blender().recommend(Shop.ask("u", 10, Set.of("p1")));
    assertThat(kept.productIds()).contains("p0").doesNotContain("sold-out", "p1");

    shop.settings.set(shop.settings.get().with(new BlendSettings(true, 3, 4)));
    var excluded = shop.blender().recommend(Shop.ask("u", 10, Set.of("p1")));
    assertThat(excluded.productIds()).hasSize(10).doesNotContain("p0", "sold-out", "p1");
  }

  @Test
  void no_brand_or_category_takes_more_than_its_cap_while_others_can_fill() {
    var shop = shop();
    shop.settings.set(shop.settings.get().with(new BlendSettings(false, 2, 3)));
    var answer = shop.blender().recommend(Shop.ask("nobody", 6, Set.of()));
    assertThat(answer.items()).hasSize(6);
    var brands = answer.productIds().stream()
        .map(id -> "brand" + (Integer.parseInt(id.substring(1)) % 3))
        .toList();
    var categories = answer.productIds().stream()
        .map(id -> "cat" + (Integer.parseInt(id.substring(1)) / 10))
        .toList();
    for (String brand : List.of("brand0", "brand1", "brand2"))
      assertThat(brands.stream().filter(brand::equals).count()).isLessThanOrEqualTo(2);
    for (String category : List.of("cat0", "cat1", "cat2"))
      assertThat(categories.stream().filter(category::equals).count()).isLessThanOrEqualTo(3);
    // by popularity alone it would have been p0..p5, four of them brand0 or brand1 and all cat0
    assertThat(answer.productIds()).isNotEqualTo(List.of("p0", "p1", "p2", "p3", "p4", "p5"));
  }

  @Test
  void a_cap_gives_way_when_nothing_else_can_fill_the_places() {
    var shop = new Shop();
    for (int i = 0; i < 5; i++)
      shop.product("only" + i, "one-brand", "one-cat").popular("only" + i, 0, 10 - i);
    shop.settings.set(shop.settings.get().with(new BlendSettings(false, 1, 1)));
    var answer = shop.blender().recommend(Shop.ask("nobody", 4, Set.of()));
    assertThat(answer.productIds()).containsExactly("only0", "only1", "only2", "only3");
  }

  @Test
  void past_the_deadline_it_reads_nothing_and_answers_from_popularity() {
    var shop = shop().bought("u", "p29", 0, 5);
    shop.settings.set(shop.settings.get().with(new BlendSettings(false, 50, 50)));
    var late = new RecommendationRequest(
        "u", 5, Set.of(), Optional.empty(), Locale.ROOT, Shop.NOW.minusMillis(1));
    var answer = shop.blender().recommend(late);
    assertThat(shop.aggregates.userReads.get()).isZero();
    assertThat(answer.productIds()).containsExactly("p0", "p1", "p2", "p3", "p4");
    assertThat(answer.items())
        .allSatisfy(item -> assertThat(item.reasons()).containsExactly("popularity"));
  }

  @Test
  void a_read_slower_than_the_deadline_is_not_waited_for() {
    var shop = shop().bought("u", "p29", 0, 5);
    AggregateReader slow = new AggregateReader() {
      @Override
      public List<AggregateStore.Entry> read(String prefix, String from, String to, int limit) {
        return shop.aggregates.read(prefix, from, to, limit);
      }

      @Override
      public List<AggregateStore.Entry> under(AggregateKey key, String from, String to, int limit) {
        try {
          Thread.sleep(2_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return shop.aggregates.under(key, from, to, limit);
      }
    };
    var items = shop.items();
    var blender = new Blender(
        CandidateSource.all(),
        shop.settings::get,
        () -> items,
        () -> null,
        new SignalReader(slow, user -> Follows.NONE, InstantSource.system(), () -> 90, null),
        InstantSource.system());
    long started = System.nanoTime();
    var answer = blender.recommend(new RecommendationRequest(
        "u", 5, Set.of(), Optional.empty(), Locale.ROOT, Instant.now().plusMillis(50)));
    long tookMillis = (System.nanoTime() - started) / 1_000_000;
    assertThat(tookMillis).isLessThan(1_000);
    assertThat(answer.productIds()).hasSize(5).doesNotContain("p29");
  }

  @Test
  void k_distinct_products_whatever_the_user_did() {
    var shop = shop();
    IntStream.range(0, 30).forEach(i -> shop.viewed("busy", "p" + i, i % 10, 1 + i % 4));
    IntStream.range(0, 10).forEach(i -> shop.bought("busy", "p" + (i * 3), i % 6, 1));
    shop.coViewed("p1", "p2", 3).coBought("p3", "p4", 2);
    var blender = shop.blender();
    for (int k = 1; k <= 30; k++) {
      var answer = blender.recommend(Shop.ask("busy", k, Set.of()));
      assertThat(answer.items()).hasSize(k);
      assertThat(answer.productIds()).doesNotHaveDuplicates();
    }
  }
}
