package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignState;
import dev.tidings.campaign.CampaignView;
import dev.tidings.delivery.CampaignStats;
import dev.tidings.message.MessageId;
import dev.tidings.opentime.ShownProducts;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A campaign's page offers what its state allows, each through the route that does it, and shows the
 * times in the person's zone, named.
 */
class CampaignPageActionsTest {
  private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");
  private static final Instant AT = Instant.parse("2026-12-01T08:00:00Z");
  private static final Visitor IN_PARIS =
      Visitor.signedIn("token-1").inZone(ZoneId.of("Europe/Paris"));

  private final CampaignControls controls = new CampaignControls(
      new CampaignEditorSources(null, null, null, null, null, InstantSource.fixed(NOW)),
      null,
      null,
      false);

  @Test
  void a_draft_is_edited_previewed_tested_scheduled_sent_or_deleted_from_its_page() {
    Document bar = bar(CampaignState.DRAFT, Optional.empty(), Optional.of("created"));

    assertThat(bar.select("nav.controls a").eachText())
        .containsExactly("Edit", "Preview…", "Send now…", "Delete draft…");
    assertThat(bar.select("nav.controls a").eachAttr("href"))
        .containsExactly(
            "/campaigns/7/edit",
            "/campaigns/7/preview",
            "/campaigns/7/confirm?action=send",
            "/campaigns/7/confirm?action=delete");
    var test = bar.select("form[action=/campaigns/7/test]");
    assertThat(test).hasSize(1);
    assertThat(test.select("input[name=_csrf]").val()).isEqualTo("token-1");
    assertThat(test.select("input[name=back]").val()).isEqualTo("campaign");
    var schedule = bar.select("form[action=/campaigns/7/confirm]");
    assertThat(schedule.select("input[name=action]").val()).isEqualTo("schedule");
    assertThat(schedule.select("input[name=at]").val())
        .as("the next full hour, in Paris")
        .isEqualTo("2026-11-28T14:00");
    assertThat(schedule.select("input[name=zone]").val()).isEqualTo("Europe/Paris");
    assertThat(schedule.select("button").text()).isEqualTo("Schedule…");
    assertThat(bar.select(".notice").text())
        .as("the notice after saving names what the page offers")
        .contains("Preview it", "send yourself a test", "schedule it");
  }

  @Test
  void a_scheduled_campaign_says_when_in_the_persons_zone_and_is_moved_or_taken_off() {
    Document bar = bar(CampaignState.SCHEDULED, Optional.of(AT), Optional.empty());

    assertThat(bar.select(".starts").text())
        .isEqualTo("Scheduled: starts by itself Tue 1 Dec, 09:00 Europe/Paris.");
    assertThat(bar.select("nav.controls a").eachText())
        .containsExactly("Edit", "Preview…", "Send now…", "Unschedule…", "Cancel…");
    assertThat(bar.select("form[action=/campaigns/7/test]")).hasSize(1);
    var schedule = bar.select("form[action=/campaigns/7/confirm]");
    assertThat(schedule.select("input[name=at]").val()).isEqualTo("2026-12-01T09:00");
    assertThat(schedule.select("button").text()).isEqualTo("Reschedule…");
  }

  @Test
  void a_campaign_under_way_or_done_offers_only_what_still_makes_sense() {
    assertThat(bar(CampaignState.RUNNING, Optional.empty(), Optional.empty())
            .select("nav.controls a")
            .eachText())
        .containsExactly("Pause…", "Cancel…");
    assertThat(bar(CampaignState.PAUSED, Optional.empty(), Optional.empty())
            .select("nav.controls a")
            .eachText())
        .containsExactly("Resume…", "Cancel…");
    for (var done : List.of(CampaignState.COMPLETED, CampaignState.CANCELLED)) {
      Document bar = bar(done, Optional.of(AT), Optional.empty());
      assertThat(bar.select("nav.controls a")).as(done.name()).isEmpty();
      assertThat(bar.select("form")).as(done.name()).isEmpty();
      assertThat(bar.select(".starts")).as(done.name()).isEmpty();
    }
  }

  @Test
  void the_list_shows_when_scheduled_campaigns_start_in_the_persons_zone() {
    var rows = new CampaignsPage.Rows(
        List.of(7L, 8L),
        Map.of("c7.name", "Winter", "c8.name", "Spring"),
        Map.of(),
        Map.of(7L, AT));
    var page = new CampaignsPage(null, null, true, InstantSource.fixed(NOW));

    Document list = Jsoup.parse(page.render(IN_PARIS, rows));

    assertThat(list.select("table.campaigns th[scope=row]").eachText())
        .containsExactly("Winter starts Tue 1 Dec, 09:00 Europe/Paris", "Spring");
    assertThat(Jsoup.parse(page.render(Visitor.signedIn("t"), rows))
            .select(".when")
            .text())
        .as("someone whose zone is not known reads UTC, named")
        .isEqualTo("starts Tue 1 Dec, 08:00 UTC");
  }

  @Test
  void the_times_the_page_reports_are_in_the_persons_zone() {
    var view = view(CampaignState.COMPLETED, Optional.empty());
    var figures = CampaignFigures.of(
        view,
        new CampaignStats(7, Map.of(), Map.of(), Map.of(), Map.of(), List.of()),
        List.of(),
        id -> Optional.empty());
    var shown = new ShownProducts.Shown(new MessageId(7, 3, "s1").text(), 7, List.of(), AT);

    Document page = Jsoup.parse(CampaignPage.render(
        IN_PARIS,
        "",
        view,
        figures,
        Optional.of(new CampaignPage.Preview(shown, "Hi", List.of(), Locale.UK)),
        Optional.empty(),
        Optional.empty()));

    assertThat(page.select("#preview ~ p.muted").text())
        .contains("products chosen 2026-12-01 09:00:00 Europe/Paris");
  }

  private Document bar(CampaignState state, Optional<Instant> at, Optional<String> done) {
    return Jsoup.parse(controls.controls(view(state, at), done, IN_PARIS));
  }

  private static CampaignView view(CampaignState state, Optional<Instant> at) {
    var json = (ObjectNode) Json.MAPPER.readTree("""
        {"name": "Winter", "from": "news@shop.example", "subject": "Hi",
         "html": "<p>Hi <a href=\\"{{unsubscribeUrl}}\\">u</a></p>", "text": "Hi {{unsubscribeUrl}}"}""");
    at.ifPresent(time -> json.put("scheduledAt", time.toString()));
    var campaign =
        new Campaign(7, CampaignJson.fromJson(json), state, 1, Optional.empty(), NOW, NOW);
    return new CampaignView(campaign, state, Optional.empty());
  }
}
