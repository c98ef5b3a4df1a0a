package dev.tidings.web.dashboard;

import dev.tidings.delivery.SendTimeOutcomes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
      List<CampaignPage.Bars> opens) {}

  private SendTimeSection() {}

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
    List<CampaignPage.Bars> opens = new ArrayList<>();
    boolean sent = cohorts.stream().anyMatch(cohort -> cohort.sent() > 0);
    double top = 0;
    for (var cohort : cohorts)
      for (int h = 0; h < HOURS; h++) top = Math.max(top, share(cohort.opensByHour()[h], cohort));
    for (var cohort : cohorts) {
      String key = cohort.name().replace(' ', '_');
      rates.add(new CampaignPage.Fact(
          "Human open rate, " + cohort.name() + " (" + Html.count(cohort.sent()) + " sent)",
          "sendtime.rate." + key,
          Html.percent(cohort.openRate())));
      List<CampaignPage.Bar> rows = new ArrayList<>();
      for (int h = 0; h < HOURS; h++) {
        double share = share(cohort.opensByHour()[h], cohort);
        rows.add(new CampaignPage.Bar(
            h + "-" + (h + 1) + " h",
            "sendtime.opens." + key + "." + h,
            Html.percent(share),
            top == 0 ? "0%" : String.format(Locale.ROOT, "%.1f%%", 100 * share / top),
            key.equals("timed") ? "human" : "machine"));
      }
      opens.add(new CampaignPage.Bars(
          "sendtime-" + key,
          "People opening in each hour after their send, " + cohort.name() + ", of its emails",
          "",
          rows));
    }
    return new View(
        List.of(new CampaignPage.Bars(
            "sendtime-planned",
            "Recipients planned for each hour (the hold-out at the start)",
            "",
            hours)),
        rates,
        sent,
        opens);
  }

  private static double share(long opened, SendTimeOutcomes.Cohort cohort) {
    return cohort.sent() == 0 ? 0 : (double) opened / cohort.sent();
  }

  private static String width(long n, long most) {
    return String.format(Locale.ROOT, "%.1f%%", most == 0 ? 0 : 100.0 * n / most);
  }
}
