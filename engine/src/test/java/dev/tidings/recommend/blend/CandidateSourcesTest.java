package dev.tidings.recommend.blend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Each algorithm alone, on hand-made aggregates whose right answer can be worked out by hand. */
class CandidateSourcesTest {
  @Nested
  class Popularity {
    @Test
    void recent_events_outweigh_more_events_long_ago_by_the_half_life() {
      var shop = new Shop()
          .product("old", "b", "c")
          .product("fresh", "b", "c")
          .product("between", "b", "c")
          .popular("old", 6, 10) // 10 * 0.5^(6/3) = 2.5
          .popular("fresh", 0, 4) // 4
          .popular("between", 3, 6) // 6 * 0.5 = 3
          .set(
              Algorithm.POPULARITY,
              new AlgorithmSettings(true, 1, Map.of("halfLifeDays", 3.0, "windowDays", 14.0)));
      var found = shop.candidates(new Trending(), "anyone", 10);
      assertThat(found).extracting(Scored::productId).containsExactly("fresh", "between", "old");
      assertThat(found.get(2).score()).isCloseTo(2.5, Offset.offset(1e-9));
    }

    @Test
    void events_outside_the_window_and_unavailable_products_do_not_count() {
      var shop = new Shop()
          .product("ancient", "b", "c")
          .product("gone", "b", "c", false, Shop.NOW)
          .product("live", "b", "c")
          .popular("ancient", 30, 1000)
          .popular("gone", 0, 50)
          .popular("live", 1, 1)
          .set(Algorithm.POPULARITY, new AlgorithmSettings(true, 1, Map.of("windowDays", 14.0)));
      assertThat(shop.ids(new Trending(), "anyone", 10)).containsExactly("live");
    }

    @Test
    void a_shorter_half_life_changes_the_order() {
      var shop = new Shop()
          .product("steady", "b", "c")
          .product("spike", "b", "c")
          .popular("steady", 5, 10)
          .popular("spike", 0, 4);
      shop.set(Algorithm.POPULARITY, new AlgorithmSettings(true, 1, Map.of("halfLifeDays", 30.0)));
      assertThat(shop.ids(new Trending(), "u", 2)).containsExactly("steady", "spike");
      shop.set(Algorithm.POPULARITY, new AlgorithmSettings(true, 1, Map.of("halfLifeDays", 1.0)));
      assertThat(shop.ids(new Trending(), "u", 2)).containsExactly("spike", "steady");
    }
  }

  @Nested
  class CoOccurrenceOfRecentItems {
    @Test
    void neighbours_of_the_seen_item_by_sessions_together_the_seed_itself_left_out() {
      var shop = new Shop()
          .product("a", "b", "c")
          .product("often", "b", "c")
          .product("once", "b", "c")
          .product("never", "b", "c")
          .popular("a", 0, 10)
          .popular("often", 0, 10)
          .popular("once", 0, 10)
          .popular("never", 0, 100)
          .coViewed("a", "often", 5)
          .coViewed("a", "once", 1)
          .viewed("u", "a", 0, 1);
      assertThat(shop.ids(new CoOccurrence(), "u", 10)).containsExactly("often", "once");
    }

    @Test
    void a_purchase_together_weighs_more_than_a_view_together() {
      var shop = new Shop()
          .product("a", "b", "c")
          .product("viewed", "b", "c")
          .product("bought", "b", "c")
          .coViewed("a", "viewed", 2)
          .coBought("a", "bought", 1)
          .bought("u", "a", 0, 1);
      // coPurchaseWeight 3 by default: 3 > 2
      assertThat(shop.ids(new CoOccurrence(), "u", 10)).containsExactly("bought", "viewed");
      shop.set(
          Algorithm.CO_OCCURRENCE, new AlgorithmSettings(true, 1, Map.of("coPurchaseWeight", 1.0)));
      assertThat(shop.ids(new CoOccurrence(), "u", 10)).containsExactly("viewed", "bought");
    }

    @Test
    void a_user_with_no_items_gets_none() {
      var shop = new Shop().product("a", "b", "c").product("x", "b", "c").coViewed("a", "x", 3);
      assertThat(shop.candidates(new CoOccurrence(), "stranger", 10)).isEmpty();
    }
  }

  @Nested
  class BrandAndCategoryAffinity {
    @Test
    void products_of_the_favourite_brand_first_then_of_the_liked_category() {
      var shop = new Shop()
          .product("velin-1", "Velin", "shirts")
          .product("velin-2", "Velin", "shoes")
          .product("other-shirt", "Other", "shirts")
          .product("other-hat", "Other", "hats")
          .likesBrand("u", "Velin", 0, 10)
          .likesCategory("u", "shirts", 0, 5);
      var found = shop.ids(new Affinity(), "u", 10);
      // velin-1 is brand (1) + category (1); velin-2 brand only (1); other-shirt category only (1)
      assertThat(found).first().isEqualTo("velin-1");
      assertThat(found).containsExactlyInAnyOrder("velin-1", "velin-2", "other-shirt");
    }

    @Test
    void last_month_counts_more_than_a_bigger_year_old_taste() {
      var shop = new Shop()
          .product("old-love", "Old", "x")
          .product("new-love", "New", "y")
          .likesBrand("u", "Old", 12, 20) // 20 * 0.5^(12/3) = 1.25
          .likesBrand("u", "New", 1, 2); // 2 * 0.5^(1/3) = 1.59
      assertThat(shop.ids(new Affinity(), "u", 10)).containsExactly("new-love", "old-love");
    }
  }

  @Nested
  class RecentlyViewedNotBought {
    @Test
    void views_of_the_last_days_newest_first_without_what_was_bought_or_seen_long_ago() {
      var shop = new Shop()
          .product("today", "b", "c")
          .product("last-week", "b", "c")
          .product("long-ago", "b", "c")
          .product("bought-too", "b", "c")
          .viewed("u", "today", 0, 1)
          .viewed("u", "last-week", 7, 3) // 3 * 0.5^(7/3) = 0.6
          .viewed("u", "long-ago", 20, 50)
          .viewed("u", "bought-too", 0, 9)
          .bought("u", "bought-too", 0, 1);
      assertThat(shop.ids(new RecentlyViewed(), "u", 10)).containsExactly("today", "last-week");
    }
  }

  @Nested
  class BuyingAgain {
    @Test
    void bought_often_and_lately_first() {
      var shop = new Shop()
          .product("staple", "b", "c")
          .product("once-lately", "b", "c")
          .product("once-long-ago", "b", "c")
          .bought("u", "staple", 0, 1)
          .bought("u", "staple", 2, 1)
          .bought("u", "staple", 4, 1)
          .bought("u", "once-lately", 0, 1)
          .bought("u", "once-long-ago", 24, 1)
          .set(Algorithm.BUY_AGAIN, new AlgorithmSettings(true, 1, Map.of("repeatBonus", 0.5)));
      var found = shop.candidates(new BuyAgain(), "u", 10);
      assertThat(found)
          .extracting(Scored::productId)
          .containsExactly("staple", "once-lately", "once-long-ago");
      // staple: (1 + 0.5^(2/6) + 0.5^(4/6)) * (1 + 0.5 * 2)
      double staple = (1 + Math.pow(0.5, 2 / 6.0) + Math.pow(0.5, 4 / 6.0)) * 2;
      assertThat(found.getFirst().score()).isCloseTo(staple, Offset.offset(1e-9));
    }

    @Test
    void someone_who_bought_nothing_gets_nothing() {
      var shop = new Shop().product("p", "b", "c").viewed("u", "p", 0, 4);
      assertThat(shop.candidates(new BuyAgain(), "u", 10)).isEmpty();
    }
  }

  @Nested
  class NewFromFollowed {
    @Test
    void new_products_of_followed_brands_and_categories_newest_first() {
      var shop = new Shop()
          .product("new-brand", "Velin", "x", true, Shop.NOW.minus(Duration.ofDays(2)))
          .product("newer-category", "Other", "shoes", true, Shop.NOW.minus(Duration.ofDays(1)))
          .product("old-brand", "Velin", "x", true, Shop.NOW.minus(Duration.ofDays(60)))
          .product("new-unfollowed", "Else", "y", true, Shop.NOW.minus(Duration.ofDays(1)))
          .product("new-sold-out", "Velin", "x", false, Shop.NOW.minus(Duration.ofDays(1)))
          .follows("u", Set.of("Velin"), Set.of("shoes"));
      assertThat(shop.ids(new NewItems(), "u", 10)).containsExactly("newer-category", "new-brand");
    }

    @Test
    void who_follows_nothing_gets_nothing() {
      var shop = new Shop().product("p", "b", "c", true, Shop.NOW);
      assertThat(shop.candidates(new NewItems(), "u", 10)).isEmpty();
    }
  }

  @Nested
  class EaseOnCoOccurrence {
    @Test
    void items_that_go_with_the_seed_score_and_unrelated_ones_do_not() {
      var shop = new Shop();
      for (String id : new String[] {"a", "b", "c", "x", "y"})
        shop.product(id, "b", "c").popular(id, 0, 20);
      shop.coBought("a", "b", 15)
          .coBought("b", "c", 10)
          .coBought("x", "y", 15)
          .viewed("u", "a", 0, 1);
      shop.set(Algorithm.EASE, new AlgorithmSettings(true, 1, Map.of("lambda", 1.0)));
      var found = shop.ids(new EaseSource(), "u", 10);
      assertThat(found).first().isEqualTo("b");
      assertThat(found).doesNotContain("a", "x", "y");
    }

    @Test
    void two_items_weigh_each_other_by_the_closed_form_worked_by_hand() {
      // G + lambda I = [[d_a, g], [g, d_b]], d the diagonal raised to max(all-time, row sum) +
      // lambda; its inverse is [[d_b, -g], [-g, d_a]] / det, so B_ab = -P_ab / P_bb = g / d_a
      var shop = new Shop();
      shop.product("a", "b", "c").popular("a", 0, 10);
      shop.product("b", "b", "c").popular("b", 0, 4);
      shop.coBought("a", "b", 6);
      EaseModel model = EaseModel.fit(shop.items(), 10, 1, Shop.NOW);
      double allTimeA = shop.items().allTime("a");
      double allTimeB = shop.items().allTime("b");
      double g = 6;
      assertThat(model.weight("a", "b")).isCloseTo(g / (Math.max(allTimeA, g) + 1), within(1e-5));
      assertThat(model.weight("b", "a")).isCloseTo(g / (Math.max(allTimeB, g) + 1), within(1e-5));
    }

    @Test
    void the_fitted_weights_are_symmetric_in_sign() {
      var shop = new Shop();
      for (String id : new String[] {"a", "b", "c"}) shop.product(id, "b", "c").popular(id, 0, 10);
      shop.coBought("a", "b", 6).coBought("b", "c", 2);
      EaseModel model = EaseModel.fit(shop.items(), 10, 1, Shop.NOW);
      assertThat(model.size()).isEqualTo(3);
      assertThat(model.weight("a", "b")).isPositive();
      assertThat(model.weight("b", "a")).isPositive();
      assertThat(model.weight("a", "b")).isGreaterThan(model.weight("c", "b"));
    }

    @Test
    void only_the_most_popular_items_take_part() {
      var shop = new Shop();
      for (int i = 0; i < 5; i++) shop.product("p" + i, "b", "c").popular("p" + i, 0, 10 + i);
      for (int i = 0; i < 4; i++) shop.coViewed("p" + i, "p" + (i + 1), 3);
      assertThat(EaseModel.fit(shop.items(), 3, 10, Shop.NOW).size()).isEqualTo(3);
    }
  }
}
