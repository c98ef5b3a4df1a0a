package dev.tidings.web.dashboard;

import dev.tidings.delivery.SendTimeOutcomes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A per-subscriber campaign's send times on its page: the recipients planned for each hour, and once
 * sent, people's opens in each hour after their own send for the timed cohort against the hold-out
 * (each as a share of its cohort's emails, so the two compare whatever their sizes), with each
 * cohort's human open rate.
 */
final class SendTimeSection {
  /** Hours after the send the comparison shows. */
  static final int HOURS = 24;

  private static final DateTimeFormatter HOUR =
      DateTimeFormatter.ofPattern("EEE HH:mm 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

  record View(
      List<CampaignPage.Bars> planned,
      List<CampaignPage.Fact> rates,
      boolean sent,
      boolean anyOpens,
      List<HourPair> opens) {}

  /** One hour after the send: each cohort's share of its emails opened by people in that hour. */
  record HourPair(
      String label, String timed, String timedWidth, String heldOut, String heldOutWidth) {}

  private SendTimeSection() {}

  /** {@code cohorts}: the timed cohort, then the hold-out (either may be missing before a send). */
  static View of(List<Map.Entry<Instant, Long>> planned, List<SendTimeOutcomes.Cohort> cohorts) {
    long most = planned.stream().mapToLong(Map.Entry::getValue).max().orElse(1);
    List<CampaignPage.Bar> hours = new ArrayList<>();
    for (var hour : planned)
      hours.add(new CampaignPage.Bar(
          HOUR.format(hour.getKey()),
          "sendtime.planned." + hour.getKey().getEpochSecond(),
          Html.count(hour.getValue()),
          width(hour.getValue(), most),
          "human"));
    List<CampaignPage.Fact> rates = new ArrayList<>();
    for (var cohort : cohorts)
      rates.add(new CampaignPage.Fact(
          "Human open rate, " + cohort.name() + " (" + Html.count(cohort.sent()) + " sent)",
          "sendtime.rate." + cohort.name().replace(' ', '_'),
          Html.percent(cohort.openRate())));
    boolean sent = cohorts.stream().anyMatch(cohort -> cohort.sent() > 0);
    double top = 0;
    for (var cohort : cohorts)
      for (int h = 0; h < HOURS; h++) top = Math.max(top, share(cohort.opensByHour()[h], cohort));
    var timed = cohorts.stream().filter(c -> c.name().equals("timed")).findFirst();
    var heldOut = cohorts.stream().filter(c -> !c.name().equals("timed")).findFirst();
    List<HourPair> opens = new ArrayList<>();
    if (top > 0)
      for (int h = 0; h < HOURS; h++) {
        double a = timed.map(share(h)).orElse(0.0);
        double b = heldOut.map(share(h)).orElse(0.0);
        opens.add(new HourPair(
            h + "-" + (h + 1) + " h",
            Html.percent(a),
            width(a, top),
            Html.percent(b),
            width(b, top)));
      }
    return new View(
        List.of(new CampaignPage.Bars(
            "sendtime-planned",
            "Recipients planned for each hour (the hold-out at the start)",
            "",
            hours)),
        rates,
        sent,
        top > 0,
        opens);
  }

  private static Function<SendTimeOutcomes.Cohort, Double> share(int hour) {
    return cohort -> share(cohort.opensByHour()[hour], cohort);
  }

  private static double share(long opened, SendTimeOutcomes.Cohort cohort) {
    return cohort.sent() == 0 ? 0 : (double) opened / cohort.sent();
  }

  private static String width(double n, double most) {
    return String.format(Locale.ROOT, "%.1f%%", most == 0 ? 0 : 100.0 * n / most);
  }
}
