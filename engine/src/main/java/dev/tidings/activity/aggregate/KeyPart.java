package dev.tidings.activity.aggregate;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * One typed segment of an {@link AggregateKey}, written {@code tag@value}: {@code s@} text, {@code i@}
 * a whole number, {@code b@} the period an aggregate covers (a day, a month, a year or all time).
 */
public sealed interface KeyPart {

  /** The segment as it is written in a key. */
  String format();

  /** Text; a {@code :} or {@code \} in it is escaped with a backslash, so any text round-trips. */
  record Text(String value) implements KeyPart {
    public Text {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String format() {
      var out = new StringBuilder(value.length() + 2).append("s@");
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c == ':' || c == '\\') out.append('\\');
        out.append(c);
      }
      return out.toString();
    }
  }

  record Number(long value) implements KeyPart {
    @Override
    public String format() {
      return "i@" + value;
    }
  }

  /**
   * The period an aggregate covers. Its written forms ({@code 2013-08-12}, {@code 2013-08}, {@code
   * 2013}, {@code all}) sort in time order within one scope, so a range of days is a range of keys.
   */
  sealed interface Bucket extends KeyPart {
    Scope scope();

    String text();

    @Override
    default String format() {
      return "b@" + text();
    }

    static Bucket parse(String text) {
      if (text.equals("all")) return new AllTime();
      try {
        return switch (text.length()) {
          case 4 -> new Year(Integer.parseInt(text));
          case 7 -> new Month(YearMonth.parse(text));
          case 10 -> new Day(LocalDate.parse(text));
          default ->
            throw new KeyProblem(
                "a period is a day (2013-08-12), a month (2013-08), a year (2013) or all, not '"
                    + text + "'");
        };
      } catch (NumberFormatException | DateTimeParseException e) {
        throw new KeyProblem("'" + text + "' is not a valid day, month or year");
      }
    }
  }

  record Day(LocalDate day) implements Bucket {
    @Override
    public Scope scope() {
      return Scope.DAY;
    }

    @Override
    public String text() {
      return day.toString();
    }
  }

  record Month(YearMonth month) implements Bucket {
    @Override
    public Scope scope() {
      return Scope.MONTH;
    }

    @Override
    public String text() {
      return month.toString();
    }
  }

  record Year(int year) implements Bucket {
    public Year {
      if (year < 1000 || year > 9999)
        throw new KeyProblem("a year in a key has four digits, not " + year);
    }

    @Override
    public Scope scope() {
      return Scope.YEAR;
    }

    @Override
    public String text() {
      return Integer.toString(year);
    }
  }

  record AllTime() implements Bucket {
    @Override
    public Scope scope() {
      return Scope.ALL;
    }

    @Override
    public String text() {
      return "all";
    }
  }
}
