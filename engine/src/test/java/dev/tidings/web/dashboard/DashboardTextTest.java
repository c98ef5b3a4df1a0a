package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.recommend.RecommendationRequest;
import dev.tidings.recommend.Recommendations.Recommended;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

class DashboardTextTest {
  @Test
  void markup_in_data_is_escaped_by_the_templates() {
    String html =
        Templates.render("notfound", new Html.NotFound("<script>alert('x')</script> & \"q\""));
    assertThat(html)
        .doesNotContain("<script>")
        .contains("&lt;script&gt;")
        .contains("&amp;")
        .doesNotContain("\"q\"");
    assertThat(Jsoup.parse(html).select("p").text())
        .startsWith("<script>alert('x')</script> & \"q\"");
  }

  @Test
  void sign_in_only_returns_to_a_path_on_this_site() {
    assertThat(SignIn.safeNext(Optional.of("/campaigns/3?x=1"))).isEqualTo("/campaigns/3?x=1");
    assertThat(SignIn.safeNext(Optional.of("https://evil.example/"))).isEqualTo("/");
    assertThat(SignIn.safeNext(Optional.of("//evil.example/"))).isEqualTo("/");
    assertThat(SignIn.safeNext(Optional.of("/\\evil.example/"))).isEqualTo("/");
    assertThat(SignIn.safeNext(Optional.of("/x\r\nSet-Cookie: a=b"))).isEqualTo("/");
    assertThat(SignIn.safeNext(Optional.of("/campaign\u007f"))).isEqualTo("/");
    assertThat(SignIn.safeNext(Optional.of("/caf\u00e9"))).isEqualTo("/");
    assertThat(SignIn.safeNext(Optional.empty())).isEqualTo("/");
  }

  @Test
  void recommendations_come_from_the_recommender_and_an_empty_list_is_none_yet() {
    var clock = InstantSource.fixed(Instant.parse("2026-11-26T10:00:00Z"));
    var asked = new ArrayList<RecommendationRequest>();
    var found = new Recommendations(
            request -> {
              asked.add(request);
              return new dev.tidings.recommend.Recommendations(List.of(
                  new Recommended(
                      "p-7", "cooccurrence", 0.7, List.of("cooccurrence", "popularity")),
                  new Recommended("p-9", "popularity", 0.2, List.of("popularity"))));
            },
            clock)
        .of("s-1");
    assertThat(found).isInstanceOf(Recommendations.Found.class);
    var items = ((Recommendations.Found) found).items();
    assertThat(items).extracting(Recommendations.Item::id).containsExactly("p-7", "p-9");
    assertThat(items.getFirst().reasons()).containsExactly("cooccurrence", "popularity");
    assertThat(items.getFirst().score()).isEqualTo(0.7);
    assertThat(asked).singleElement().satisfies(request -> {
      assertThat(request.subscriberId()).isEqualTo("s-1");
      assertThat(request.k()).isEqualTo(Recommendations.COUNT);
      assertThat(request.exclude()).isEmpty();
    });

    assertThat(new Recommendations(
                request -> new dev.tidings.recommend.Recommendations(List.of()), clock)
            .of("s-1"))
        .isInstanceOf(Recommendations.NoneYet.class);
    assertThat(new Recommendations(
                request -> {
                  throw new IllegalStateException("aggregates unreadable");
                },
                clock)
            .of("s-1"))
        .isEqualTo(new Recommendations.Failed("the recommender failed: aggregates unreadable"));
  }
}
