package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DashboardTextTest {
  @Test
  void markup_in_data_is_escaped() {
    assertThat(Html.escape("<script>alert('x')</script> & \"q\""))
        .isEqualTo("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
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
  void recommendations_are_read_in_the_apis_format_and_an_empty_list_is_none_yet() {
    var answer = Recommendations.parse("""
        {"items": [{"id": "p-7", "score": 0.7, "reasons": ["cooccurrence", "popularity"]},
                   {"id": "p-9", "score": 0.2, "reasons": []}]}""");
    assertThat(answer).isInstanceOf(Recommendations.Found.class);
    var items = ((Recommendations.Found) answer).items();
    assertThat(items).extracting(Recommendations.Item::id).containsExactly("p-7", "p-9");
    assertThat(items.getFirst().reasons()).containsExactly("cooccurrence", "popularity");
    assertThat(items.getFirst().score()).isEqualTo(0.7);

    assertThat(Recommendations.parse("{\"items\": []}"))
        .isInstanceOf(Recommendations.NoneYet.class);
    assertThat(Recommendations.parse("not json")).isInstanceOf(Recommendations.Failed.class);
    assertThat(Recommendations.parse("{\"other\": 1}")).isInstanceOf(Recommendations.Failed.class);
  }
}
