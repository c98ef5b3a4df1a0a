package dev.tidings.web.dashboard;

import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.CampaignState;
import dev.tidings.campaign.CampaignView;
import dev.tidings.delivery.CampaignHeadline;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.FunnelStep;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every campaign (the newest {@link #SHOWN}) with its state, progress and headline rates: a table
 * rendered on the server whose cells the live stream keeps current.
 */
final class CampaignsPage {
  static final int SHOWN = 100;

  private final CampaignService campaigns;
  private final DeliveryStats delivery;
  private final boolean canCreate;
  private final InstantSource clock;

  CampaignsPage(
      CampaignService campaigns, DeliveryStats delivery, boolean canCreate, InstantSource clock) {
    this.campaigns = campaigns;
    this.delivery = delivery;
    this.canCreate = canCreate;
    this.clock = clock;
  }

  /**
   * One row's values by {@code data-k}, and the list of campaign ids in the order shown; and when the
   * scheduled ones start, which each viewer reads in their own zone (so it is not a live value: the
   * live values are one snapshot for every viewer).
   */
  record Rows(
      List<Long> ids,
      Map<String, String> texts,
      Map<String, Double> widths,
      Map<Long, Instant> startsAt) {
    Rows(List<Long> ids, Map<String, String> texts, Map<String, Double> widths) {
      this(ids, texts, widths, Map.of());
    }
  }

  Rows rows() {
    List<CampaignView> views =
        campaigns.list(Optional.empty(), SHOWN).stream().map(campaigns::view).toList();
    List<Long> ids = views.stream().map(v -> v.campaign().id()).toList();
    Map<Long, CampaignHeadline> headlines = delivery.headlines(ids);
    Map<String, String> texts = new LinkedHashMap<>();
    Map<String, Double> widths = new LinkedHashMap<>();
    Map<Long, Instant> startsAt = new LinkedHashMap<>();
    for (CampaignView view : views) {
      long id = view.campaign().id();
      if (view.state() == CampaignState.SCHEDULED)
        view.campaign().definition().scheduledAt().ifPresent(at -> startsAt.put(id, at));
      String p = "c" + id + ".";
      var progress = view.progress();
      texts.put(p + "name", view.campaign().definition().name());
      texts.put(p + "state", view.state().name().toLowerCase(Locale.ROOT).replace('_', ' '));
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
              .map(s -> String.format(Locale.ROOT, "%.0f/s", s.recentPerSecond()))
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
    return new Rows(ids, texts, widths, startsAt);
  }

  private static String eta(CampaignView view) {
    var progress = view.progress();
    if (progress.isEmpty()) return "–";
    var p = progress.get();
    if (p.state().finished()) return "done";
    long left = p.planned() - p.done();
    if (left <= 0 || p.recentPerSecond() <= 0) return "–";
    return CampaignFigures.human(Duration.ofSeconds((long) Math.ceil(left / p.recentPerSecond())));
  }

  /** The list as the {@code campaigns} template shows it. */
  record View(boolean any, List<Row> rows, boolean canCreate, List<String> notice) {}

  /** One campaign's row; {@code key} prefixes the {@code data-k} of each live cell. */
  record Row(
      long id,
      String key,
      String name,
      List<String> startsAt,
      String state,
      String progress,
      String width,
      String speed,
      String eta,
      String delivered,
      String open,
      String click,
      String losses) {}

  String render(Visitor visitor, Rows rows) {
    return render(visitor, rows, Optional.empty());
  }

  /** @param notice what the last action did (a draft deleted), shown once */
  String render(Visitor visitor, Rows rows, Optional<String> notice) {
    Instant now = clock.instant();
    List<Row> shown = rows.ids().stream()
        .map(id -> {
          String p = "c" + id + ".";
          Function<String, String> text = key -> rows.texts().getOrDefault(p + key, "");
          return new Row(
              id,
              p,
              text.apply("name"),
              Optional.ofNullable(rows.startsAt().get(id))
                  .map(at -> ScheduleTime.show(at, visitor.zone(), now))
                  .stream()
                  .toList(),
              text.apply("state"),
              text.apply("progress"),
              String.format(Locale.ROOT, "%.1f%%", rows.widths().getOrDefault(p + "progress", 0.0)),
              text.apply("speed"),
              text.apply("eta"),
              text.apply("delivered"),
              text.apply("open"),
              text.apply("click"),
              text.apply("losses"));
        })
        .toList();
    return Html.page(
        "Campaigns",
        Html.Section.CAMPAIGNS,
        visitor,
        Templates.render(
            "campaigns",
            new View(!shown.isEmpty(), shown, canCreate, notice.stream().toList())));
  }
}
