package dev.tidings.web.dashboard;

import dev.tidings.campaign.CampaignView;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.catalog.Product;
import dev.tidings.delivery.CampaignStats;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.FunnelStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One campaign's figures as the page shows them: every number already formatted and every bar's
 * width already computed, keyed by the {@code data-k} of the element that shows it. The page is
 * rendered from these on the server and the live stream sends the same maps, so the script that
 * updates the page only copies values and cannot disagree with the server.
 */
record CampaignFigures(
    Map<String, String> texts, Map<String, Double> widths, List<Minute> minutes, int slots) {

  static final int TOP_PRODUCTS = 5;

  /** Funnel steps in the order of the chart, with the label a reader sees. */
  static final List<Map.Entry<String, String>> FUNNEL = List.of(
      Map.entry("planned", "Planned"),
      Map.entry("sent", "Sent"),
      Map.entry("delivered", "Delivered"),
      Map.entry("opened", "Opened"),
      Map.entry("clicked", "Clicked"));

  static final List<Map.Entry<String, String>> LOSSES = List.of(
      Map.entry("bounced", "Bounced"),
      Map.entry("complained", "Complained"),
      Map.entry("unsubscribed", "Unsubscribed"));

  static final List<Map.Entry<String, String>> RATES = List.of(
      Map.entry("delivery", "Delivery"),
      Map.entry("open", "Open"),
      Map.entry("humanOpen", "Human open"),
      Map.entry("click", "Click"),
      Map.entry("clickToOpen", "Click to open"),
      Map.entry("bounce", "Bounce"),
      Map.entry("complaint", "Complaint"),
      Map.entry("unsubscribe", "Unsubscribe"));

  /** Opens and clicks reached in one minute, for the chart over time. */
  record Minute(String minute, long opened, long humanOpened, long clicked) {}

  static CampaignFigures of(
      CampaignView view,
      CampaignStats stats,
      List<DeliveryStats.ProductClicks> top,
      Function<String, Optional<Product>> products) {
    Map<String, String> texts = new LinkedHashMap<>();
    Map<String, Double> widths = new LinkedHashMap<>();
    Optional<SendProgress> progress = view.progress();
    long planned = progress.map(SendProgress::planned).orElse(0L);
    texts.put("state", view.state().name().toLowerCase(Locale.ROOT).replace('_', ' '));
    texts.put("progress", progressText(progress));
    texts.put(
        "speed",
        progress
            .filter(p -> !p.state().finished())
            .map(p -> String.format(Locale.ROOT, "%.0f/s", p.recentPerSecond()))
            .orElse("–"));
    texts.put("eta", eta(progress));
    widths.put("progress", progress.map(p -> share(p.done(), p.planned())).orElse(0.0));

    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("planned", planned);
    for (FunnelStep step : FunnelStep.values()) counts.put(step.wire(), stats.count(step));
    long scale = Math.max(1, Math.max(planned, stats.count(FunnelStep.SENT)));
    for (var step : FUNNEL) {
      long n = counts.getOrDefault(step.getKey(), 0L);
      texts.put("funnel." + step.getKey(), Html.count(n));
      widths.put("funnel." + step.getKey(), share(n, scale));
    }
    long sent = Math.max(1, stats.count(FunnelStep.SENT));
    for (var step : LOSSES) {
      long n = counts.getOrDefault(step.getKey(), 0L);
      texts.put("funnel." + step.getKey(), Html.count(n));
      widths.put("funnel." + step.getKey(), share(n, sent));
    }
    for (var rate : RATES)
      texts.put(
          "rate." + rate.getKey(), Html.percent(stats.rates().getOrDefault(rate.getKey(), 0.0)));

    long opened = stats.count(FunnelStep.OPENED);
    long human = stats.count(FunnelStep.HUMAN_OPENED);
    long machine = Math.max(0, opened - human);
    texts.put("opens.human", Html.count(human));
    texts.put("opens.machine", Html.count(machine));
    widths.put("opens.human", share(human, Math.max(1, opened)));
    widths.put("opens.machine", share(machine, Math.max(1, opened)));

    int slots = view.campaign().definition().slots();
    long most = Math.max(
        1, stats.slotClicks().values().stream().mapToLong(Long::longValue).max().orElse(0));
    for (int slot = 0; slot < slots; slot++) {
      long n = stats.slotClicks().getOrDefault(slot, 0L);
      texts.put("slot." + slot, Html.count(n));
      widths.put("slot." + slot, share(n, most));
    }

    for (int i = 0; i < TOP_PRODUCTS; i++) {
      if (i < top.size()) {
        var row = top.get(i);
        texts.put(
            "top." + i + ".title",
            products.apply(row.productId()).map(Product::title).orElse(row.productId()));
        texts.put("top." + i + ".clicks", Html.count(row.clicks()));
      } else {
        texts.put("top." + i + ".title", "–");
        texts.put("top." + i + ".clicks", "");
      }
    }

    List<Minute> minutes = new ArrayList<>();
    for (var minute : stats.minutes()) {
      var steps = minute.steps();
      minutes.add(new Minute(
          minute.minute().toString(),
          steps.getOrDefault(FunnelStep.OPENED, 0L),
          steps.getOrDefault(FunnelStep.HUMAN_OPENED, 0L),
          steps.getOrDefault(FunnelStep.CLICKED, 0L)));
    }
    return new CampaignFigures(texts, widths, minutes, slots);
  }

  String text(String key) {
    return texts.getOrDefault(key, "");
  }

  /** A bar's width as a CSS percentage. */
  String width(String key) {
    return String.format(Locale.ROOT, "%.1f%%", widths.getOrDefault(key, 0.0));
  }

  private static double share(long part, long whole) {
    if (whole <= 0) return 0;
    return Math.min(100.0, 100.0 * part / whole);
  }

  private static String progressText(Optional<SendProgress> progress) {
    if (progress.isEmpty()) return "not sent";
    var p = progress.get();
    return Html.count(p.sent()) + " / " + Html.count(p.planned()) + " sent"
        + (p.failed() + p.unknown() > 0
            ? ", " + Html.count(p.failed() + p.unknown()) + " failed"
            : "")
        + (p.skipped() > 0 ? ", " + Html.count(p.skipped()) + " skipped" : "");
  }

  /** Time left at the recent rate; "done" once the run finished, "–" when nothing moves. */
  private static String eta(Optional<SendProgress> progress) {
    if (progress.isEmpty()) return "–";
    var p = progress.get();
    if (p.state().finished()) return "done";
    long left = p.planned() - p.done();
    if (left <= 0) return "done";
    if (p.recentPerSecond() <= 0) return "–";
    return human(Duration.ofSeconds((long) Math.ceil(left / p.recentPerSecond())));
  }

  static String human(Duration duration) {
    long seconds = duration.toSeconds();
    if (seconds < 60) return seconds + " s";
    if (seconds < 3600) return (seconds / 60) + " min " + (seconds % 60) + " s";
    return (seconds / 3600) + " h " + (seconds % 3600 / 60) + " min";
  }
}
