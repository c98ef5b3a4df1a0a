package dev.tidings.recommend.blend;

import dev.tidings.activity.aggregate.KeyPart;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** One aggregate's values per period (days, months, all time), with the decays the algorithms use. */
final class Periods {
  private final List<KeyPart.Bucket> buckets = new ArrayList<>(4);
  private final List<Double> values = new ArrayList<>(4);

  void add(KeyPart.Bucket bucket, double value) {
    buckets.add(bucket);
    values.add(value);
  }

  /** The all-time value; the months summed when there is no all-time period. */
  double allTime() {
    double months = 0;
    for (int i = 0; i < buckets.size(); i++) {
      if (buckets.get(i) instanceof KeyPart.AllTime) return values.get(i);
      if (buckets.get(i) instanceof KeyPart.Month) months += values.get(i);
    }
    return months;
  }

  /**
   * Month values, each halved per {@code halfLifeMonths} of age before {@code current}; the all-time
   * value as if a year old when there are no months.
   */
  double decayedMonths(YearMonth current, double halfLifeMonths) {
    double sum = 0;
    boolean anyMonth = false;
    for (int i = 0; i < buckets.size(); i++) {
      if (buckets.get(i) instanceof KeyPart.Month month) {
        anyMonth = true;
        long age = Math.max(0, ChronoUnit.MONTHS.between(month.month(), current));
        sum += values.get(i) * Math.pow(0.5, age / halfLifeMonths);
      }
    }
    return anyMonth ? sum : allTime() * Math.pow(0.5, 12 / halfLifeMonths);
  }

  /** Day values of the last {@code days} days, each halved per {@code halfLifeDays} of age. */
  double decayedDays(LocalDate today, int days, double halfLifeDays) {
    double sum = 0;
    for (int i = 0; i < buckets.size(); i++) {
      if (buckets.get(i) instanceof KeyPart.Day day) {
        long age = Math.max(0, ChronoUnit.DAYS.between(day.day(), today));
        if (age < days) sum += values.get(i) * Math.pow(0.5, age / halfLifeDays);
      }
    }
    return sum;
  }

  /** Months with a value above zero: how often a purchase repeated. */
  int distinctMonths() {
    int count = 0;
    for (int i = 0; i < buckets.size(); i++)
      if (buckets.get(i) instanceof KeyPart.Month && values.get(i) > 0) count++;
    return count;
  }

  /** The latest day (or first day of the latest month) with a value; MIN when none. */
  LocalDate latest() {
    LocalDate latest = LocalDate.MIN;
    for (int i = 0; i < buckets.size(); i++) {
      LocalDate at = switch (buckets.get(i)) {
        case KeyPart.Day day -> day.day();
        case KeyPart.Month month -> month.month().atDay(1);
        case KeyPart.Year year -> LocalDate.of(year.year(), 1, 1);
        case KeyPart.AllTime all -> LocalDate.MIN;
      };
      if (values.get(i) > 0 && at.isAfter(latest)) latest = at;
    }
    return latest;
  }
}
