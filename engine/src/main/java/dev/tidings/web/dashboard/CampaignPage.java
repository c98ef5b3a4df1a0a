package dev.tidings.web.dashboard;

import dev.tidings.campaign.CampaignView;
import dev.tidings.campaign.DigestOptions;
import dev.tidings.catalog.Product;
import dev.tidings.notify.DigestsSent;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.optimize.ExperimentReport;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One campaign: progress, the funnel as bars, human and machine opens, opens and clicks over time,
 * clicks per slot position, the most clicked products, and one email's product cards. Everything a
 * number shows carries the {@code data-k} its live value arrives under.
 */
final class CampaignPage {
  private CampaignPage() {}

  /** The email previewed: who it went to and the products its slots showed. */
  record Preview(ShownProducts.Shown email, String subject, List<Optional<Product>> products) {}

  static String render(
      CampaignView view,
      CampaignFigures figures,
      Optional<Preview> preview,
      Optional<DigestsSent.Summary> digests,
      Optional<ExperimentReport> experiment) {
    long id = view.campaign().id();
    var definition = view.campaign().definition();
    var body = new StringBuilder();
    body.append("<p class=\"crumbs\"><a href=\"/\">Campaigns</a> ›</p>")
        .append("<h1>")
        .append(Html.escape(definition.name()))
        .append("</h1><p class=\"muted\">Subject template: <code>")
        .append(Html.escape(definition.subject()))
        .append("</code></p><div data-live=\"/live/campaigns/")
        .append(id)
        .append("\" class=\"grid\">");

    body.append(
        "<section aria-labelledby=\"run\" class=\"card wide\"><h2 id=\"run\">Sending</h2><dl class=\"facts\">");
    fact(body, "State", "state", figures);
    fact(body, "Sent / planned", "progress", figures);
    fact(body, "Rate", "speed", figures);
    fact(body, "Time left", "eta", figures);
    body.append(
            "</dl><span class=\"bar\" aria-hidden=\"true\"><span data-w=\"progress\" style=\"width:")
        .append(figures.width("progress"))
        .append(
            "\"></span></span><p class=\"live-note\" aria-live=\"polite\" data-status>Live: connecting…</p></section>");

    body.append("<section aria-labelledby=\"funnel\" class=\"card\"><h2 id=\"funnel\">Funnel</h2>");
    bars(
        body,
        "funnel",
        "Each email counted once per step",
        CampaignFigures.FUNNEL,
        "funnel.",
        figures,
        "");
    bars(
        body,
        "losses",
        "Lost on the way, of sent",
        CampaignFigures.LOSSES,
        "funnel.",
        figures,
        "loss");
    body.append("</section>");

    body.append(
        "<section aria-labelledby=\"rates\" class=\"card\"><h2 id=\"rates\">Rates</h2><dl class=\"facts two\">");
    for (var rate : CampaignFigures.RATES)
      fact(body, rate.getValue(), "rate." + rate.getKey(), figures);
    body.append("</dl><h3>Opens: people and machines</h3>");
    bars(
        body,
        "opens",
        "Opens by people against prefetches by mail proxies and scanners",
        List.of(Map.entry("human", "People"), Map.entry("machine", "Machines")),
        "opens.",
        figures,
        "");
    body.append("</section>");

    body.append(
            "<section aria-labelledby=\"time\" class=\"card wide\"><h2 id=\"time\">Opens and clicks per minute</h2>"
                + "<figure><div class=\"chart\" data-chart=\"minutes\" role=\"img\" aria-label=\"Opens, human opens and"
                + " clicks per minute over the last hour\"><noscript>The chart needs JavaScript; the numbers above do"
                + " not.</noscript></div><figcaption class=\"legend\"><span class=\"key opened\">opens</span>"
                + " <span class=\"key human\">human opens</span> <span class=\"key clicked\">clicks</span></figcaption></figure>"
                + "<script type=\"application/json\" data-minutes>")
        .append(
            dev.tidings.Json.MAPPER.writeValueAsString(figures.minutes()).replace("<", "\\u003c"))
        .append("</script></section>");

    body.append(
        "<section aria-labelledby=\"slots\" class=\"card\"><h2 id=\"slots\">Clicks by slot position</h2>");
    List<Map.Entry<String, String>> slots = new java.util.ArrayList<>();
    for (int slot = 0; slot < figures.slots(); slot++)
      slots.add(Map.entry(Integer.toString(slot), "Slot " + (slot + 1)));
    if (slots.isEmpty()) body.append("<p>This campaign has no product slots.</p>");
    else
      bars(
          body,
          "slotclicks",
          "Human clicks on each of the email's product slots",
          slots,
          "slot.",
          figures,
          "");
    body.append("</section>");

    body.append(
        "<section aria-labelledby=\"top\" class=\"card\"><h2 id=\"top\">Most clicked products</h2>"
            + "<table><thead><tr><th scope=\"col\">Product</th><th scope=\"col\" class=\"num\">Clicks</th></tr></thead><tbody>");
    for (int i = 0; i < CampaignFigures.TOP_PRODUCTS; i++) {
      body.append("<tr><td data-k=\"top.")
          .append(i)
          .append(".title\">")
          .append(Html.escape(figures.text("top." + i + ".title")))
          .append("</td><td class=\"num\" data-k=\"top.")
          .append(i)
          .append(".clicks\">")
          .append(Html.escape(figures.text("top." + i + ".clicks")))
          .append("</td></tr>");
    }
    body.append("</tbody></table></section>");

    digests.ifPresent(
        summary -> digestSection(body, summary, definition.digest().orElseThrow()));
    experiment.ifPresent(
        report -> ExperimentSection.render(body, report, definition.experiment().orElseThrow()));

    body.append(
        "<section aria-labelledby=\"preview\" class=\"card wide\"><h2 id=\"preview\">One email as it was opened</h2>");
    if (preview.isEmpty()) {
      body.append(
          "<p>No email of this campaign has been opened yet: its products are chosen at the first open.</p>");
    } else {
      var email = preview.get().email();
      body.append("<p class=\"muted\">Message <code>")
          .append(Html.escape(email.messageId()))
          .append("</code>, products chosen ")
          .append(Html.time(email.chosenAt()))
          .append(" (<a href=\"/explorer?subscriber=")
          .append(Html.escape(java.net.URLEncoder.encode(
              dev.tidings.message.MessageId.parse(email.messageId())
                  .map(m -> m.subscriberId())
                  .orElse(""),
              java.nio.charset.StandardCharsets.UTF_8)))
          .append(
              "\">this subscriber's recommendations</a>)</p><div class=\"email\"><p class=\"subject\">")
          .append(Html.escape(preview.get().subject()))
          .append("</p>");
      ProductCards.render(body, email.productIds(), preview.get().products());
      body.append("</div>");
    }
    body.append("</section></div>");
    return Html.page(definition.name(), Html.Section.CAMPAIGNS, true, body.toString());
  }

  /** A digest campaign's digests as the page was loaded: how many, what they told most, the latest. */
  private static void digestSection(
      StringBuilder body, DigestsSent.Summary summary, DigestOptions options) {
    body.append("<section aria-labelledby=\"digests\" class=\"card wide\"><h2 id=\"digests\">"
            + "Digests</h2><dl class=\"facts\"><div><dt>Digests sent</dt><dd>")
        .append(Html.count(summary.digests()))
        .append("</dd></div><div><dt>Pieces told</dt><dd>")
        .append(Html.count(summary.pieces()))
        .append("</dd></div><div><dt>Per digest</dt><dd>")
        .append(
            summary.digests() == 0
                ? "–"
                : String.format(
                    java.util.Locale.ROOT, "%.1f", summary.pieces() / (double) summary.digests()))
        .append("</dd></div><div><dt>Looks back</dt><dd>")
        .append(options.lookBackDays())
        .append(" days, at least ")
        .append(options.minimum())
        .append("</dd></div></dl>");
    if (summary.digests() == 0) {
      body.append("<p>No digest of this campaign has been sent yet. Subscribers with fewer than ")
          .append(options.minimum())
          .append(" new pieces are skipped.</p></section>");
      return;
    }
    body.append(
        "<div class=\"grid\"><div><h3>Told most</h3><table><thead><tr>"
            + "<th scope=\"col\">Piece</th><th scope=\"col\" class=\"num\">Digests</th></tr></thead><tbody>");
    for (var told : summary.mostTold())
      body.append("<tr><td>")
          .append(Html.escape(told.title()))
          .append("</td><td class=\"num\">")
          .append(Html.count(told.digests()))
          .append("</td></tr>");
    body.append("</tbody></table></div><div><h3>Latest digests</h3><table><thead><tr>"
        + "<th scope=\"col\">Subscriber</th><th scope=\"col\">Sent</th><th scope=\"col\">Told</th>"
        + "</tr></thead><tbody>");
    for (var sent : summary.latest())
      body.append("<tr><td>")
          .append(Html.escape(sent.subscriberId()))
          .append("</td><td>")
          .append(Html.time(sent.sentAt()))
          .append("</td><td>")
          .append(Html.escape(String.join(", ", sent.titles())))
          .append("</td></tr>");
    body.append("</tbody></table></div></div></section>");
  }

  private static void fact(StringBuilder body, String label, String key, CampaignFigures figures) {
    body.append("<div><dt>")
        .append(Html.escape(label))
        .append("</dt><dd data-k=\"")
        .append(key)
        .append("\">")
        .append(Html.escape(figures.text(key)))
        .append("</dd></div>");
  }

  /** A bar chart that is a table: readable without CSS, script or sight. */
  private static void bars(
      StringBuilder body,
      String name,
      String caption,
      List<Map.Entry<String, String>> rows,
      String prefix,
      CampaignFigures figures,
      String cssClass) {
    body.append("<table class=\"bars ")
        .append(cssClass)
        .append("\" data-name=\"")
        .append(name)
        .append("\"><caption>")
        .append(Html.escape(caption))
        .append("</caption><tbody>");
    for (var row : rows) {
      String key = prefix + row.getKey();
      body.append("<tr><th scope=\"row\">")
          .append(Html.escape(row.getValue()))
          .append("</th><td class=\"num\" data-k=\"")
          .append(key)
          .append("\">")
          .append(Html.escape(figures.text(key)))
          .append(
              "</td><td class=\"barcell\" aria-hidden=\"true\"><span class=\"bar\"><span data-w=\"")
          .append(key)
          .append("\" class=\"b-")
          .append(row.getKey())
          .append("\" style=\"width:")
          .append(figures.width(key))
          .append("\"></span></span></td></tr>");
    }
    body.append("</tbody></table>");
  }
}
