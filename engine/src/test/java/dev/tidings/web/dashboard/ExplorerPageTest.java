package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.audience.Consent;
import dev.tidings.audience.Subscriber;
import dev.tidings.opentime.ShownProducts;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExplorerPageTest {
  private static final Subscriber ADA = new Subscriber(
      "s-1",
      "ada@example.org",
      Optional.of("Ada <b>"),
      Locale.UK,
      ZoneId.of("Europe/London"),
      Optional.empty(),
      Consent.SUBSCRIBED);

  @Test
  void each_recommendation_shows_the_algorithms_that_put_it_there() {
    var found = new Recommendations.Found(
        List.of(new Recommendations.Item("p-7", 0.7, List.of("cooccurrence", "popularity"))));
    String html = ExplorerPage.render(
        Visitor.signedIn("test-token"),
        List.of(ADA),
        Optional.of(new ExplorerPage.Picked("s-1", Optional.of(ADA), found, Map.of(), List.of())));
    assertThat(html)
        .contains("<span class=\"tag\">cooccurrence</span>")
        .contains("<span class=\"tag\">popularity</span>")
        .contains("0.700")
        .contains("Ada &lt;b&gt;")
        .doesNotContain("Ada <b>")
        .contains("None of their emails has been opened yet");
  }

  @Test
  void a_subscriber_without_recommendations_reads_none_yet_beside_what_their_emails_showed() {
    var shown = new ShownProducts.Shown(
        "m-1", 3, List.of("p-1", "p-2"), Instant.parse("2026-11-24T08:00:00Z"));
    String html = ExplorerPage.render(
        Visitor.signedIn("test-token"),
        List.of(ADA),
        Optional.of(new ExplorerPage.Picked(
            "s-1", Optional.of(ADA), new Recommendations.NoneYet(), Map.of(), List.of(shown))));
    assertThat(html)
        .contains("No recommendations yet for this subscriber.")
        .contains("href=\"/campaigns/3\"")
        .contains("2026-11-24 08:00:00 UTC")
        .contains("p-1 (no longer in the catalogue, or not sold in the market of this subscriber)");
  }

  @Test
  void an_unknown_subscriber_is_said_so() {
    String html = ExplorerPage.render(
        Visitor.signedIn("test-token"),
        List.of(),
        Optional.of(new ExplorerPage.Picked(
            "nobody", Optional.empty(), new Recommendations.NoneYet(), Map.of(), List.of())));
    assertThat(html).contains("No subscriber with id <code>nobody</code>");
  }
}
