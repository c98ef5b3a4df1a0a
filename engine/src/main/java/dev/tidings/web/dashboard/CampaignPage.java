package dev.tidings.web.dashboard;

import dev.tidings.Json;
import dev.tidings.campaign.CampaignView;
import dev.tidings.campaign.DigestOptions;
import dev.tidings.catalog.Product;
import dev.tidings.message.MessageId;
import dev.tidings.notify.DigestsSent;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.optimize.ExperimentReport;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
  /**
   * @param products each slot's product as the subscriber's market sells it, empty where it is not
   * @param locale how the subscriber's cards write amounts
   */
  record Preview(
      ShownProducts.Shown email, String subject, List<Optional<Product>> products, Locale locale) {}

  /** The page as the {@code campaign} template shows it. */
  record View(
      String controls,
      long id,
      String name,
      String subject,
      List<Fact> sending,
      String progressWidth,
      List<Bars> funnel,
      List<Fact> rates,
      List<Bars> opens,
      String minutesJson,
      List<Bars> slotClicks,
      List<TopProduct> top,
      List<Digests> digestSection,
      List<ExperimentSection.View> experimentSection,
      List<SendTimeSection.View> sendTimeSection,
      List<PreviewView> preview) {}

  /** A figure with its label, and the key its live value arrives under. */
  record Fact(String label, String key, String value) {}

  /** A bar chart that is a table: readable without CSS, script or sight. */
  record Bars(String name, String caption, String cssClass, List<Bar> rows) {}

  record Bar(String label, String key, String value, String width, String kind) {}

  record TopProduct(int index, String title, String clicks) {}

  /** A digest campaign's digests as the page was loaded: how many, what they told most, the latest. */
  record Digests(
      String sent,
      String pieces,
      String perDigest,
      int lookBackDays,
      int minimum,
      boolean any,
      List<Told> mostTold,
      List<Latest> latest) {}

  record Told(String title, String told) {}

  record Latest(String subscriber, String sentAt, String titles) {}

  record PreviewView(
      String messageId,
      String chosenAt,
      String subscriberQuery,
      String subject,
      ProductCards.View productCards) {}

  /** @param controls the bar of actions (already HTML), empty where the dashboard only watches */
  static String render(
      Visitor visitor,
      String controls,
      CampaignView view,
      CampaignFigures figures,
      Optional<Preview> preview,
      Optional<DigestsSent.Summary> digests,
      Optional<ExperimentReport> experiment) {
    return render(visitor, controls, view, figures, preview, digests, experiment, Optional.empty());
  }

  /** As the other, with a per-subscriber campaign's send-time section. */
  static String render(
      Visitor visitor,
      String controls,
      CampaignView view,
      CampaignFigures figures,
      Optional<Preview> preview,
      Optional<DigestsSent.Summary> digests,
      Optional<ExperimentReport> experiment,
      Optional<SendTimeSection.View> sendTime) {
    var definition = view.campaign().definition();
    List<Map.Entry<String, String>> slots = new ArrayList<>();
    for (int slot = 0; slot < figures.slots(); slot++)
      slots.add(Map.entry(Integer.toString(slot), "Slot " + (slot + 1)));
    List<TopProduct> top = new ArrayList<>();
    for (int i = 0; i < CampaignFigures.TOP_PRODUCTS; i++)
      top.add(new TopProduct(
          i, figures.text("top." + i + ".title"), figures.text("top." + i + ".clicks")));
    var page = new View(
        controls,
        view.campaign().id(),
        definition.name(),
        definition.subject(),
        List.of(
            fact("State", "state", figures),
            fact("Sent / planned", "progress", figures),
            fact("Rate", "speed", figures),
            fact("Time left", "eta", figures)),
        figures.width("progress"),
        List.of(
            bars(
                "funnel",
                "Each email counted once per step",
                CampaignFigures.FUNNEL,
                "funnel.",
                figures,
                ""),
            bars(
                "losses",
                "Lost on the way, of sent",
                CampaignFigures.LOSSES,
                "funnel.",
                figures,
                "loss")),
        CampaignFigures.RATES.stream()
            .map(rate -> fact(rate.getValue(), "rate." + rate.getKey(), figures))
            .toList(),
        List.of(bars(
            "opens",
            "Opens by people against prefetches by mail proxies and scanners",
            List.of(Map.entry("human", "People"), Map.entry("machine", "Machines")),
            "opens.",
            figures,
            "")),
        Json.MAPPER.writeValueAsString(figures.minutes()).replace("<", "\\u003c"),
        slots.isEmpty()
            ? List.of()
            : List.of(bars(
                "slotclicks",
                "Human clicks on each of the email's product slots",
                slots,
                "slot.",
                figures,
                "")),
        top,
        digests.stream()
            .map(summary -> digests(summary, definition.digest().orElseThrow(), visitor.zone()))
            .toList(),
        experiment.stream()
            .map(report ->
                ExperimentSection.of(report, definition.experiment().orElseThrow(), visitor.zone()))
            .toList(),
        sendTime.stream().toList(),
        preview.stream().map(shown -> preview(shown, visitor.zone())).toList());
    return Html.page(
        definition.name(), Html.Section.CAMPAIGNS, visitor, Templates.render("campaign", page));
  }

  private static PreviewView preview(Preview preview, ZoneId zone) {
    var email = preview.email();
    String subscriber =
        MessageId.parse(email.messageId()).map(MessageId::subscriberId).orElse("");
    return new PreviewView(
        email.messageId(),
        Html.time(email.chosenAt(), zone),
        URLEncoder.encode(subscriber, StandardCharsets.UTF_8),
        preview.subject(),
        ProductCards.of(email.productIds(), preview.products(), preview.locale()));
  }

  private static Digests digests(DigestsSent.Summary summary, DigestOptions options, ZoneId zone) {
    return new Digests(
        Html.count(summary.digests()),
        Html.count(summary.pieces()),
        summary.digests() == 0
            ? "–"
            : String.format(Locale.ROOT, "%.1f", summary.pieces() / (double) summary.digests()),
        options.lookBackDays(),
        options.minimum(),
        summary.digests() > 0,
        summary.mostTold().stream()
            .map(told -> new Told(told.title(), Html.count(told.digests())))
            .toList(),
        summary.latest().stream()
            .map(sent -> new Latest(
                sent.subscriberId(),
                Html.time(sent.sentAt(), zone),
                String.join(", ", sent.titles())))
            .toList());
  }

  private static Fact fact(String label, String key, CampaignFigures figures) {
    return new Fact(label, key, figures.text(key));
  }

  private static Bars bars(
      String name,
      String caption,
      List<Map.Entry<String, String>> rows,
      String prefix,
      CampaignFigures figures,
      String cssClass) {
    return new Bars(
        name,
        caption,
        cssClass,
        rows.stream()
            .map(row -> {
              String key = prefix + row.getKey();
              return new Bar(
                  row.getValue(), key, figures.text(key), figures.width(key), row.getKey());
            })
            .toList());
  }
}
