package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.activity.ActivityHistory;
import dev.tidings.activity.EventType;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Follow;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionReason;
import dev.tidings.audience.TargetType;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.ProductJson;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.history.SubscriberHistory;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * The Subscribers pages from their templates: what subscribers, campaigns and products are called is
 * escaped everywhere (each fixture carries markup), every form carries the session's token, every
 * input its label, and each state says what it is.
 */
class SubscriberPagesTest {
  private static final Visitor VISITOR = Visitor.signedIn("test-token");
  private static final Instant T = Instant.parse("2026-11-26T10:00:00Z");
  private static final List<String> HOSTILE =
      List.of("<script>", "<b>", "<sale>", "<x>", "<i>", "<brand>", "<db>");

  private static final Subscriber EVE = new Subscriber(
      "s:1",
      "eve+<b>@example.com",
      Optional.of("Eve <script>alert(1)</script>"),
      Locale.forLanguageTag("de-AT"),
      ZoneId.of("Europe/Vienna"),
      Optional.of(new Location(Optional.empty(), Optional.of("Wien <x>"), Optional.of("AT"))),
      Consent.PENDING);

  private static Product product() throws Exception {
    return ProductJson.fromJson(Json.MAPPER.readTree(
        "{\"id\":\"p1\",\"title\":\"Shirt <x>\",\"brand\":\"Velin\",\"price\":\"9.50\","
            + "\"currency\":\"EUR\",\"imageUrl\":\"https://img.example/p1.png\","
            + "\"landingUrl\":\"https://shop.example/p1\"}"));
  }

  private static SubscriberPage.Profile profile(
      Optional<Suppression> suppression,
      Recommendations.Answer recommendations,
      Optional<String> notice)
      throws Exception {
    var clicked = new SubscriberHistory.Email(
        new DeliveryStats.SubscriberMessage(
            "m-1",
            7,
            Optional.of(T),
            DeliveryStatus.CLICKED,
            T.plusSeconds(60),
            Set.of(
                FunnelStep.SENT,
                FunnelStep.DELIVERED,
                FunnelStep.OPENED,
                FunnelStep.HUMAN_OPENED,
                FunnelStep.CLICKED)),
        Optional.of("Winter <sale>"),
        List.of("p1", "gone<i>"),
        Optional.of(T.plusSeconds(30)));
    var bounced = new SubscriberHistory.Email(
        new DeliveryStats.SubscriberMessage(
            "m-2",
            8,
            Optional.empty(),
            DeliveryStatus.BOUNCED,
            T,
            Set.of(FunnelStep.SENT, FunnelStep.BOUNCED)),
        Optional.empty(),
        List.of(),
        Optional.empty());
    return new SubscriberPage.Profile(
        EVE,
        Optional.of(new SubscriberService.Dates(T.minusSeconds(86_400), T)),
        List.of(new Follow("s:1", new FollowTarget(TargetType.BRAND, "<brand>"), T)),
        3,
        suppression,
        List.of(clicked, bounced),
        List.of(
            new ActivityHistory.PastEvent("p1", EventType.PURCHASE, T),
            new ActivityHistory.PastEvent("<i>", EventType.VIEW, T.minusSeconds(60))),
        recommendations,
        Map.of("p1", product()),
        notice);
  }

  private static void assertSafe(String name, String html) {
    assertThat(html).as(name).doesNotContain(HOSTILE);
    Document page = Jsoup.parse(html);
    for (Element form : page.select("form[method=post]"))
      assertThat(form.select("input[type=hidden][name=_csrf]").val())
          .as(name + ": " + form.attr("action"))
          .isEqualTo("test-token");
    for (Element input : page.select("main input:not([type=hidden]), main select"))
      assertThat(page.select("label[for=" + input.id() + "]"))
          .as(name + ": the label of " + input.id())
          .hasSize(1);
    for (Element header : page.select("main th"))
      assertThat(header.attr("scope")).as(name + ": " + header.text()).isIn("col", "row");
    var levels = page.select("main h1, main h2, main h3").stream()
        .map(heading -> Integer.parseInt(heading.tagName().substring(1)))
        .toList();
    assertThat(levels.getFirst()).as(name).isEqualTo(1);
    for (int i = 1; i < levels.size(); i++)
      assertThat(levels.get(i))
          .as(name + ": headings in order")
          .isLessThanOrEqualTo(levels.get(i - 1) + 1);
  }

  @Test
  void a_subscribers_page_escapes_what_users_wrote_and_shows_all_they_did() throws Exception {
    String html = SubscriberPage.render(
        VISITOR,
        profile(
            Optional.empty(),
            new Recommendations.Found(List.of(
                new Recommendations.Item("p1", 0.5, List.of("co_occurrence")),
                new Recommendations.Item("gone", 0.25, List.of("popularity")))),
            Optional.of("Suppression lifted: this address may be mailed again.")));
    assertSafe("subscriber", html);
    Document page = Jsoup.parse(html);
    assertThat(page.select("h1").text()).isEqualTo("Eve <script>alert(1)</script>");
    assertThat(page.select("code.copyable").text()).isEqualTo("s:1");
    assertThat(page.select("[role=status]").text())
        .isEqualTo("Suppression lifted: this address may be mailed again.");
    assertThat(page.select("#details ~ dl dd").eachText())
        .containsExactly(
            "eve+<b>@example.com",
            "Eve <script>alert(1)</script>",
            "de-AT",
            "AT",
            "Wien <x>",
            "Europe/Vienna",
            "pending",
            "2026-11-25 10:00:00 UTC",
            "2026-11-26 10:00:00 UTC");
    assertThat(page.select("#follows ~ div tbody tr").eachText())
        .containsExactly("brand <brand> 2026-11-26 10:00:00 UTC");
    assertThat(page.select("#follows ~ p.muted").text()).isEqualTo("and 2 more");

    var add = page.select("form[action=/subscribers/s%3A1/suppression/add]");
    assertThat(add).hasSize(1);
    assertThat(add.select("select[name=reason] option").eachAttr("value"))
        .containsExactly("bounce", "complaint", "unsubscribe", "manual");
    assertThat(add.select("option[selected]").val()).isEqualTo("manual");
    assertThat(page.select("form[action$=/lift]")).isEmpty();

    assertThat(page.select("#emails ~ div tbody tr").eachText())
        .containsExactly(
            "Winter <sale> 2026-11-26 10:00:00 UTC clicked sent delivered opened humanOpened"
                + " clicked Shirt <x> gone<i>",
            "Campaign 8 not yet known bounced sent bounced not opened yet");
    assertThat(page.select("#emails ~ div a").eachAttr("href"))
        .containsExactly("/campaigns/7", "/campaigns/8");
    assertThat(page.select("#emails ~ div img").eachAttr("src"))
        .containsExactly("https://img.example/p1.png");
    assertThat(page.select("#activity ~ div tbody tr").eachText())
        .containsExactly(
            "2026-11-26 10:00:00 UTC purchase Shirt <x>", "2026-11-26 09:59:00 UTC view <i>");
    assertThat(page.select("#recs ~ div tbody tr").eachText())
        .containsExactly("1 Shirt <x> 0.500 co_occurrence", "2 gone 0.250 popularity");
    assertThat(page.select("nav a[aria-current=page]").text()).isEqualTo("Subscribers");
  }

  @Test
  void a_suppressed_subscriber_shows_why_and_since_when_with_the_form_to_lift_it()
      throws Exception {
    String html = SubscriberPage.render(
        VISITOR,
        profile(
            Optional.of(new Suppression(EVE.email(), SuppressionReason.COMPLAINT, T)),
            new Recommendations.Failed("down <db>"),
            Optional.empty()));
    assertSafe("suppressed", html);
    Document page = Jsoup.parse(html);
    assertThat(page.select("#suppression ~ p").first().text())
        .isEqualTo("suppressed since 2026-11-26 10:00:00 UTC, reason complaint:"
            + " no email is sent to this address.");
    assertThat(page.select("form[action=/subscribers/s%3A1/suppression/lift]")).hasSize(1);
    assertThat(page.select("form[action$=/add]")).isEmpty();
    assertThat(page.select("[role=alert]").text())
        .isEqualTo("Recommendations are not available: down <db>");
  }

  @Test
  void the_search_lists_subscribers_with_links_and_what_is_suppressed() {
    var bob = new Subscriber(
        "s2",
        "bob@example.com",
        Optional.empty(),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        Consent.SUBSCRIBED);
    String html = SubscribersPage.render(
        VISITOR,
        "e<b>",
        List.of(EVE, bob),
        Set.of("bob@example.com"),
        Optional.of("/subscribers?q=e%3Cb%3E&after=s2"),
        Optional.empty());
    assertSafe("search", html);
    Document page = Jsoup.parse(html);
    assertThat(page.select("label[for=q]").text()).isNotEmpty();
    assertThat(page.select("input#q").val()).isEqualTo("e<b>");
    assertThat(page.select("tbody tr").eachText())
        .containsExactly(
            "s:1 eve+<b>@example.com Eve <script>alert(1)</script> de-AT AT pending no",
            "s2 bob@example.com en subscribed suppressed");
    assertThat(page.select("tbody a").eachAttr("href"))
        .containsExactly("/subscribers/s%3A1", "/subscribers/s2");
    assertThat(page.select("a[rel=next]").attr("href"))
        .isEqualTo("/subscribers?q=e%3Cb%3E&after=s2");
    assertThat(page.select("div.scroll > table"))
        .as("scrolls sideways on a phone")
        .hasSize(1);

    Document none = Jsoup.parse(SubscribersPage.render(
        VISITOR, "zz<x>", List.of(), Set.of(), Optional.empty(), Optional.empty()));
    assertThat(none.select("[role=status]").text()).isEqualTo("No subscriber matches zz<x>.");
    assertThat(none.select("table")).isEmpty();
    assertThat(none.select("a[rel=next]")).isEmpty();

    Document refused = Jsoup.parse(SubscribersPage.render(
        VISITOR,
        "a\u0001",
        List.of(),
        Set.of(),
        Optional.empty(),
        Optional.of("q must not contain control characters (found one at 1)")));
    assertThat(refused.select("[role=alert]").text())
        .isEqualTo("q must not contain control characters (found one at 1)");
    assertThat(refused.select("[role=status]")).isEmpty();
  }
}
