package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.catalog.Money;
import dev.tidings.catalog.ProductJson;
import dev.tidings.cluster.NodeRegistry;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.opentime.ShownProducts;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * Every page from its template: user text escaped everywhere (each fixture carries markup), live cells
 * under their keys, and each state of a page (none yet, unknown, failed) saying what it is.
 */
class DashboardPagesTest {
  @Test
  void every_page_escapes_what_users_wrote_and_shows_each_state() throws Exception {
    Map<String, String> pages = new LinkedHashMap<>();
    var rows = new CampaignsPage.Rows(
        List.of(3L, 1L),
        Map.of(
            "c3.name",
            "Spring <sale> & more",
            "c3.state",
            "running",
            "c3.progress",
            "1 / 2",
            "c3.speed",
            "4/s",
            "c3.eta",
            "1 min",
            "c3.delivered",
            "1",
            "c3.open",
            "5.0%",
            "c3.click",
            "1.0%",
            "c3.losses",
            "0 / 0",
            "c1.name",
            "Old"),
        Map.of("c3.progress", 50.0));
    var page = new CampaignsPage(null, null, true, InstantSource.system());
    pages.put("campaigns", page.render(Visitor.signedIn("test-token"), rows));
    pages.put(
        "campaigns-none",
        page.render(
            Visitor.signedIn("test-token"), new CampaignsPage.Rows(List.of(), Map.of(), Map.of())));
    pages.put(
        "system",
        SystemPage.render(
            Visitor.signedIn("test-token"),
            List.of(
                new SystemPage.Dependency("database", "jdbc:<x>", Optional.empty(), 3),
                new SystemPage.Dependency(
                    "redis", "redis://r", Optional.of("refused <now>"), 2000)),
            List.of(
                new SystemPage.Queue(
                    "campaign.send",
                    Optional.of(1234L),
                    Optional.of(Duration.ofMinutes(7)),
                    Optional.of(3)),
                new SystemPage.Queue("q<2>", Optional.empty(), Optional.empty(), Optional.of(101))),
            Optional.of(new DashboardSources.Counting(42, Duration.ofSeconds(95))),
            List.of(
                new NodeRegistry.Node(
                    UUID.fromString("00000000-0000-0000-0000-000000000001"),
                    "serve",
                    "0.1.0",
                    "web-1<",
                    Instant.parse("2026-11-26T09:00:00Z"),
                    Instant.parse("2026-11-26T10:00:00Z"),
                    true,
                    true),
                new NodeRegistry.Node(
                    UUID.fromString("00000000-0000-0000-0000-000000000002"),
                    "worker",
                    "0.0.9",
                    "work-1",
                    Instant.parse("2026-11-25T09:00:00Z"),
                    Instant.parse("2026-11-26T08:00:00Z"),
                    false,
                    false)),
            Map.of(FunnelStep.SENT, 5L),
            Map.of(FunnelStep.SENT, 5000L, FunnelStep.CLICKED, 7L)));
    pages.put("signin", SignIn.page("/x?a=<1>", Optional.empty()));
    pages.put("signin-problem", SignIn.page("/", Optional.of("Wrong <key>")));
    var ann = new Subscriber(
        "s:1",
        "ann@example.com",
        Optional.of("Ann <A>"),
        Locale.forLanguageTag("de-AT"),
        ZoneId.of("UTC"),
        Optional.of(new Location(Optional.empty(), Optional.of("Wien"), Optional.of("AT"))),
        Consent.SUBSCRIBED);
    var bob = new Subscriber(
        "s2",
        "bob@example.com",
        Optional.empty(),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        Consent.SUBSCRIBED);
    var product = ProductJson.fromJson(
        Json.MAPPER.readTree(
            "{\"id\":\"p1\",\"title\":\"Shirt <x>\",\"brand\":\"Velin\",\"price\":\"9.50\",\"currency\":\"EUR\","
                + "\"imageUrl\":\"https://img.example/p1.png\",\"landingUrl\":\"https://shop.example/p1\"}"));
    var t = Instant.parse("2026-11-26T10:00:00Z");
    pages.put(
        "explorer-none",
        ExplorerPage.render(Visitor.signedIn("test-token"), List.of(ann, bob), Optional.empty()));
    pages.put(
        "explorer-unknown",
        ExplorerPage.render(
            Visitor.signedIn("test-token"),
            List.of(ann),
            Optional.of(new ExplorerPage.Picked(
                "nobody<", Optional.empty(), new Recommendations.NoneYet(), Map.of(), List.of()))));
    pages.put(
        "explorer-found",
        ExplorerPage.render(
            Visitor.signedIn("test-token"),
            List.of(ann),
            Optional.of(new ExplorerPage.Picked(
                "s:1",
                Optional.of(ann),
                new Recommendations.Found(List.of(
                    new Recommendations.Item("p1", 0.5, List.of("co_occurrence", "popularity")),
                    new Recommendations.Item("gone", 0.25, List.of("popularity")))),
                Map.of("p1", product),
                List.of(new ShownProducts.Shown("m1", 4, List.of("p1", "gone"), t))))));
    pages.put(
        "explorer-failed",
        ExplorerPage.render(
            Visitor.signedIn("test-token"),
            List.of(),
            Optional.of(new ExplorerPage.Picked(
                "s2",
                Optional.of(bob),
                new Recommendations.Failed("down <db>"),
                Map.of(),
                List.of()))));
    pages.put(
        "explorer-noneyet",
        ExplorerPage.render(
            Visitor.signedIn("test-token"),
            List.of(),
            Optional.of(new ExplorerPage.Picked(
                "s2", Optional.of(bob), new Recommendations.NoneYet(), Map.of(), List.of()))));
    pages.put("shell", Html.page("T <1>", Html.Section.SYSTEM, Visitor.NOBODY, "<p>x</p>"));
    for (var rendered : pages.entrySet())
      assertThat(rendered.getValue())
          .as(rendered.getKey())
          .doesNotContain(
              "<sale>", "<now>", "<2>", "<1>", "<key>", "<A>", "<x>", "nobody<", "<db>");

    Document campaigns = Jsoup.parse(pages.get("campaigns"));
    assertThat(campaigns.select("table.campaigns tbody tr")).hasSize(2);
    assertThat(campaigns.select("[data-k=c3.state]").text()).isEqualTo("running");
    assertThat(campaigns.select("[data-w=c3.progress]").attr("style")).isEqualTo("width:50.0%");
    assertThat(campaigns.select("a[href=/campaigns/3]").text()).isEqualTo("Spring <sale> & more");
    assertThat(Jsoup.parse(pages.get("campaigns-none")).select("main p").text())
        .startsWith("No campaign yet");

    Document system = Jsoup.parse(pages.get("system"));
    assertThat(system.select("#deps ~ table td.up").text()).isEqualTo("up");
    assertThat(system.select("#deps ~ table td.down").text()).isEqualTo("down: refused <now>");
    assertThat(system.select("#queues ~ table td").eachText())
        .containsExactly("1,234", "7 min", "3", "unavailable", "unknown here", "100+");
    assertThat(system.select("#queues ~ table a").eachAttr("href"))
        .containsExactly("/system/dead-letters/campaign.send", "/system/dead-letters/q%3C2%3E");
    assertThat(system.select("#counting ~ p").first().text())
        .isEqualTo("42 activity events wait to be counted; the oldest has waited 95 s.");
    assertThat(system.select("#nodes ~ table tbody tr").eachText())
        .containsExactly(
            "web-1< this node serve 0.1.0 2026-11-26 09:00:00 UTC 2026-11-26 10:00:00 UTC running",
            "work-1 worker 0.0.9 2026-11-25 09:00:00 UTC 2026-11-26 08:00:00 UTC not seen lately");
    assertThat(system.select("#throughput ~ table tbody tr")).hasSize(7);

    Document signIn = Jsoup.parse(pages.get("signin"));
    assertThat(signIn.select("input[name=next]").val()).isEqualTo("/x?a=<1>");
    assertThat(signIn.select("input[aria-invalid]")).isEmpty();
    assertThat(signIn.select("nav")).isEmpty();
    Document refused = Jsoup.parse(pages.get("signin-problem"));
    assertThat(refused.select("#problem").text()).isEqualTo("Wrong <key>");
    assertThat(refused.select("#key").attr("aria-describedby")).isEqualTo("problem");

    Document none = Jsoup.parse(pages.get("explorer-none"));
    assertThat(none.select("ul.chips a").eachAttr("href"))
        .containsExactly("/explorer?subscriber=s%3A1", "/explorer?subscriber=s2");
    assertThat(Jsoup.parse(pages.get("explorer-unknown")).select("[role=alert]").text())
        .isEqualTo("No subscriber with id nobody<.");
    Document found = Jsoup.parse(pages.get("explorer-found"));
    assertThat(found.select("p.who").text())
        .isEqualTo("Ann <A> ann@example.com · de-AT · Wien, AT");
    assertThat(found.select("#recs ~ table tbody tr").eachText())
        .containsExactly(
            "1 Shirt <x> Velin 0.500 co_occurrence popularity", "2 gone 0.250 popularity");
    assertThat(found.select("ol.cards li").eachText())
        .containsExactly(
            // as Ann's card wrote it: her locale (de-AT), the price's currency
            "slot 1 Velin Shirt <x> "
                + new Money(new BigDecimal("9.50"), Currency.getInstance("EUR"))
                    .format(ann.locale())
                    .replace('\u00a0', ' '),
            "slot 2 gone (no longer in the catalogue, or not sold in the market of this subscriber)");
    assertThat(Jsoup.parse(pages.get("explorer-failed")).select("[role=alert]").text())
        .isEqualTo("Recommendations are not available: down <db>");
    assertThat(Jsoup.parse(pages.get("explorer-noneyet")).select("p.empty").eachText())
        .containsExactly(
            "No recommendations yet for this subscriber.",
            "None of their emails has been opened yet.");

    Document shell = Jsoup.parse(pages.get("shell"));
    assertThat(shell.title()).isEqualTo("T <1> · Tidings");
    assertThat(shell.select("main").html()).isEqualTo("<p>x</p>");
  }
}
