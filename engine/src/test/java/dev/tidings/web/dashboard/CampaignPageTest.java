package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignState;
import dev.tidings.campaign.CampaignView;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.campaign.send.SendState;
import dev.tidings.catalog.ProductJson;
import dev.tidings.delivery.CampaignStats;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.message.MessageId;
import dev.tidings.notify.DigestsSent;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.optimize.ExperimentReport;
import dev.tidings.optimize.stats.Interval;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The campaign page from its templates: every figure under the key its live value arrives on, user text
 * escaped everywhere, the experiment, the digests and one email's cards as they were loaded.
 */
class CampaignPageTest {
  @Test
  void the_page_shows_every_part_with_user_text_escaped() throws Exception {
    var json = (ObjectNode) Json.MAPPER.readTree("""
        {"name": "Autumn <edit> & co", "from": "news@shop.example", "subject": "Hi {{subscriber.firstName}}",
         "html": "<p>Hi {{#slots}}<a href=\\"{{clickUrl}}\\"><img src=\\"{{imageUrl}}\\"></a>{{/slots}} <a href=\\"{{unsubscribeUrl}}\\">u</a></p>", "text": "Hi {{unsubscribeUrl}}", "slots": 3,
         "experiment": {"allocation": "ab", "metric": "human_click", "testShare": 0.5,
           "variants": [{"name": "blend"}, {"name": "popular <b>", "algorithms": ["popularity"]}]},
         "digest": {"lookBackDays": 5, "minimum": 2}}""");
    var definition = CampaignJson.fromJson(json);
    Instant t = Instant.parse("2026-11-26T10:00:00Z");
    var campaign = new Campaign(7, definition, CampaignState.RUNNING, 1, Optional.of(3L), t, t);
    var progress = new SendProgress(
        new SendJob(7, 3, 4, 100),
        SendState.RUNNING,
        1000,
        400,
        3,
        1,
        5,
        t,
        Optional.empty(),
        42.5);
    var view = new CampaignView(campaign, CampaignState.RUNNING, Optional.of(progress));
    var stats = new CampaignStats(
        7,
        Map.of(FunnelStep.values()[0], 400L),
        Map.of(),
        Map.of(),
        Map.of(0, 5L, 1, 2L),
        List.of());
    var product = ProductJson.fromJson(Json.MAPPER.readTree("""
        {"id":"p1","title":"Shirt \\"x\\"","brand":"Velin","price":"9.50","currency":"EUR",
         "imageUrl":"https://img.example/p1.png?a=1&b=2","landingUrl":"https://shop.example/p1"}"""));
    var figures = CampaignFigures.of(
        view, stats, List.of(new DeliveryStats.ProductClicks("p1", 5)), id -> Optional.of(product));
    var preview = new CampaignPage.Preview(
        new ShownProducts.Shown(new MessageId(7, 3, "s:1.2").text(), 7, List.of("p1", "gone"), t),
        "Hi Ann <3",
        List.of(Optional.of(product), Optional.empty()),
        Locale.UK);
    var digests = new DigestsSent.Summary(
        3,
        7,
        List.of(new DigestsSent.Told("c1", "News <1>", 3)),
        List.of(new DigestsSent.Sent("s1", t, List.of("c1"), List.of("News <1>", "Two"))));
    var report = new ExperimentReport(
        new CampaignExperiments.Plan(
            List.of("blend", "popular"), CampaignExperiments.Goal.values()[0], 0.05),
        List.of(
            new ExperimentReport.Variant(
                "blend", 100, 10, 0.1, new Interval(0.05, 0.15), 0.3, Optional.empty()),
            new ExperimentReport.Variant(
                "popular <b>",
                100,
                20,
                0.2,
                new Interval(0.12, 0.28),
                0.7,
                Optional.of(
                    new ExperimentReport.Comparison(0.1, 1.0, new Interval(-0.01, 0.21), 0.0004)))),
        Optional.of(new ExperimentReport.Decided(1, t, 0.01, 0.1, new Interval(0.02, 0.18))));
    String a = CampaignPage.render(
        Visitor.signedIn("test-token"),
        "",
        view,
        figures,
        Optional.of(preview),
        Optional.of(digests),
        Optional.of(report));
    String b = CampaignPage.render(
        Visitor.signedIn("test-token"),
        "",
        view,
        figures,
        Optional.empty(),
        Optional.of(new DigestsSent.Summary(0, 0, List.of(), List.of())),
        Optional.of(new ExperimentReport(report.plan(), report.variants(), Optional.empty())));
    Document page = Jsoup.parse(a);
    assertThat(a).doesNotContain("<edit>").doesNotContain("<b>").doesNotContain("Ann <3");
    assertThat(page.select("h1").text()).isEqualTo("Autumn <edit> & co");
    assertThat(page.select("[data-live]").attr("data-live")).isEqualTo("/live/campaigns/7");
    assertThat(page.select("#run ~ dl [data-k]").eachAttr("data-k"))
        .containsExactly("state", "progress", "speed", "eta");
    assertThat(page.select("table.bars").eachAttr("data-name"))
        .containsExactly("funnel", "losses", "opens", "slotclicks");
    assertThat(page.select("table[data-name=slotclicks] th").eachText())
        .containsExactly("Slot 1", "Slot 2", "Slot 3");
    assertThat(page.select("[data-k=top.0.title]").text()).isEqualTo("Shirt \"x\"");
    assertThat(page.select("script[data-minutes]").html()).startsWith("[");
    assertThat(page.select("table.experiment tbody tr")).hasSize(2);
    assertThat(page.select("table.experiment tbody tr").get(1).text())
        .contains("popular <b>", "+10.0 pts", "p < 0.001", "70.0%");
    assertThat(page.select("p.decision").text()).contains("Decided: popular <b> wins");
    assertThat(page.select("#digests ~ dl dd").eachText())
        .containsExactly("3", "7", "2.3", "5 days, at least 2");
    assertThat(page.select("#digests ~ div td").eachText()).contains("News <1>", "News <1>, Two");
    assertThat(page.select(".email .subject").text()).isEqualTo("Hi Ann <3");
    assertThat(page.select("ol.cards li").eachText())
        .containsExactly(
            "slot 1 Velin Shirt \"x\" €9.50",
            "slot 2 gone (no longer in the catalogue, or not sold in the market of this subscriber)");
    assertThat(page.select("ol.cards img").attr("src"))
        .isEqualTo("https://img.example/p1.png?a=1&b=2");
    assertThat(page.select("main a[href*=subscriber]").attr("href"))
        .isEqualTo("/explorer?subscriber=s%3A1.2");

    Document quiet = Jsoup.parse(b);
    assertThat(quiet.select("#preview ~ p").text())
        .startsWith("No email of this campaign has been opened");
    assertThat(quiet.select("#digests ~ p").text())
        .contains("No digest of this campaign has been sent yet");
    assertThat(quiet.select("p.decision").text()).startsWith("No decision yet");
  }
}
