package dev.tidings.activity.aggregate;

import java.time.LocalDate;
import java.time.YearMonth;

/** How long a period an aggregate covers. */
public enum Scope {
  DAY,
  MONTH,
  YEAR,
  ALL;

  /** The period of this scope that {@code day} falls in. */
  public KeyPart.Bucket bucketOf(LocalDate day) {
    return switch (this) {
      case DAY -> new KeyPart.Day(day);
      case MONTH -> new KeyPart.Month(YearMonth.from(day));
      case YEAR -> new KeyPart.Year(day.getYear());
      case ALL -> new KeyPart.AllTime();
    };
  }
}
