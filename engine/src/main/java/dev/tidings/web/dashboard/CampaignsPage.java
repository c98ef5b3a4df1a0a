package dev.tidings.web.dashboard;

import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.CampaignView;
import dev.tidings.delivery.CampaignHeadline;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.FunnelStep;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every campaign (the newest {@link #SHOWN}) with its state, progress and headline rates: a table
 * rendered on the server whose cells the live stream keeps current.
 */
final class CampaignsPage {
  static final int SHOWN = 100;

  private final CampaignService campaigns;
  private final DeliveryStats delivery;

  CampaignsPage(CampaignService campaigns, DeliveryStats delivery) {
    this.campaigns = campaigns;
    this.delivery = delivery;
  }

  /** One row's values by {@code data-k}, and the list of campaign ids in the order shown. */
  record Rows(List<Long> ids, Map<String, String> texts, Map<String, Double> widths) {}

  Rows rows() {
    List<CampaignView> views =
        campaigns.list(Optional.empty(), SHOWN).stream().map(campaigns::view).toList();
    List<Long> ids = views.stream().map(v -> v.campaign().id()).toList();
    Map<Long, CampaignHeadline> headlines = delivery.headlines(ids);
    Map<String, String> texts = new LinkedHashMap<>();
    Map<String, Double> widths = new LinkedHashMap<>();
    for (CampaignView view : views) {
      long id = view.campaign().id();
      String p = "c" + id + ".";
      var progress = view.progress();
      texts.put(p + "name", view.campaign().definition().name());
      texts.put(
          p + "state", view.state().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
      texts.put(
          p + "progress",
          progress
              .map(s -> Html.count(s.sent()) + " / " + Html.count(s.planned()))
              .orElse("not sent"));
      widths.put(
          p + "progress",
          progress
              .map(s -> s.planned() == 0 ? 0.0 : Math.min(100.0, 100.0 * s.done() / s.planned()))
              .orElse(0.0));
      texts.put(
          p + "speed",
          progress
              .filter(s -> !s.state().finished())
              .map(s -> String.format(java.util.Locale.ROOT, "%.0f/s", s.recentPerSecond()))
              .orElse("–"));
      texts.put(p + "eta", eta(view));
      var headline = headlines.getOrDefault(id, new CampaignHeadline(id, Map.of(), Map.of()));
      texts.put(p + "delivered", Html.count(headline.count(FunnelStep.DELIVERED)));
      texts.put(p + "open", Html.percent(headline.rates().getOrDefault("humanOpen", 0.0)));
      texts.put(p + "click", Html.percent(headline.rates().getOrDefault("click", 0.0)));
      texts.put(
          p + "losses",
          Html.count(headline.count(FunnelStep.BOUNCED)) + " / "
              + Html.count(headline.count(FunnelStep.COMPLAINED)));
    }
    return new Rows(ids, texts, widths);
  }

  private static String eta(CampaignView view) {
    var progress = view.progress();
    if (progress.isEmpty()) return "–";
    var p = progress.get();
    if (p.state().finished()) return "done";
    long left = p.planned() - p.done();
    if (left <= 0 || p.recentPerSecond() <= 0) return "–";
    return CampaignFigures.human(
        java.time.Duration.ofSeconds((long) Math.ceil(left / p.recentPerSecond())));
  }

  String render(Rows rows) {
    var body = new StringBuilder();
    body.append("<h1>Campaigns</h1>");
    if (rows.ids().isEmpty()) {
      body.append(
          "<p>No campaign yet. Create one with <code>POST /api/v1/campaigns</code> or"
              + " <code>tidings campaign create</code>; <code>tidings demo</code> sends one by itself.</p>");
      return Html.page("Campaigns", Html.Section.CAMPAIGNS, true, body.toString());
    }
    body.append("<div class=\"scroll\" data-live=\"/live/campaigns\"><table class=\"campaigns\">"
        + "<caption>Newest first; rates are of delivered emails, opens counted for people only."
        + " Updates live.</caption><thead><tr>"
        + "<th scope=\"col\">Campaign</th><th scope=\"col\">State</th><th scope=\"col\">Sent / planned</th>"
        + "<th scope=\"col\">Rate</th><th scope=\"col\">ETA</th><th scope=\"col\" class=\"num\">Delivered</th>"
        + "<th scope=\"col\" class=\"num\">Human opens</th><th scope=\"col\" class=\"num\">Clicks</th>"
        + "<th scope=\"col\" class=\"num\">Bounces / complaints</th></tr></thead><tbody>");
    for (long id : rows.ids()) {
      String p = "c" + id + ".";
      body.append("<tr><th scope=\"row\"><a href=\"/campaigns/")
          .append(id)
          .append("\">")
          .append(Html.escape(rows.texts().getOrDefault(p + "name", "")))
          .append("</a></th>");
      cell(body, rows, p + "state", "");
      body.append("<td><span data-k=\"")
          .append(p)
          .append("progress\">")
          .append(Html.escape(rows.texts().getOrDefault(p + "progress", "")))
          .append("</span><span class=\"bar thin\" aria-hidden=\"true\"><span data-w=\"")
          .append(p)
          .append("progress\" style=\"width:")
          .append(String.format(
              java.util.Locale.ROOT, "%.1f%%", rows.widths().getOrDefault(p + "progress", 0.0)))
          .append("\"></span></span></td>");
      cell(body, rows, p + "speed", "");
      cell(body, rows, p + "eta", "");
      cell(body, rows, p + "delivered", "num");
      cell(body, rows, p + "open", "num");
      cell(body, rows, p + "click", "num");
      cell(body, rows, p + "losses", "num");
      body.append("</tr>");
    }
    body.append("</tbody></table></div>");
    return Html.page("Campaigns", Html.Section.CAMPAIGNS, true, body.toString());
  }

  private static void cell(StringBuilder body, Rows rows, String key, String cssClass) {
    body.append("<td")
        .append(cssClass.isEmpty() ? "" : " class=\"" + cssClass + "\"")
        .append(" data-k=\"")
        .append(key)
        .append("\">")
        .append(Html.escape(rows.texts().getOrDefault(key, "")))
        .append("</td>");
  }
}
