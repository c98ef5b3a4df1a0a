package dev.tidings.web.dashboard;

import dev.tidings.campaign.CampaignJson;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

/**
 * A schedule time as a person types it: a wall-clock time in their own zone, which the schedule keeps
 * as an instant. A time the zone's clocks skip (the hour they go forward) is refused rather than moved:
 * a campaign that starts an hour away from what was typed is a surprise, a question asked again is not.
 * A time they show twice (the hour they go back) is the first of the two, and the confirmation says so.
 */
final class ScheduleTime {
  /** Longest zone name taken: the longest in the tz database is about 30 characters. */
  static final int MAX_ZONE = 64;

  private static final DateTimeFormatter SHOWN =
      DateTimeFormatter.ofPattern("EEE d MMM, HH:mm", Locale.ENGLISH);
  private static final DateTimeFormatter SHOWN_WITH_YEAR =
      DateTimeFormatter.ofPattern("EEE d MMM yyyy, HH:mm", Locale.ENGLISH);
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

  private ScheduleTime() {}

  /** What a schedule form gave: the instant and how it was read, or what is wrong in plain words. */
  sealed interface When {
    /** @param note what the person should know of how the time was read (a time shown twice) */
    record At(Instant instant, ZoneId zone, Optional<String> note) implements When {}

    record Wrong(String problem) implements When {}
  }

  /** A zone by its name; empty for one that is not (or too long to be) a zone. */
  static Optional<ZoneId> zone(String name) {
    String trimmed = name.trim();
    if (trimmed.isEmpty() || trimmed.length() > MAX_ZONE) return Optional.empty();
    try {
      return Optional.of(ZoneId.of(trimmed));
    } catch (DateTimeException unknown) {
      return Optional.empty();
    }
  }

  /**
   * @param typed the form's {@code datetime-local} (or an instant with its offset, as a script sends)
   * @param zoneName the zone it is typed in; blank: UTC, as forms made before zones were asked
   */
  static When read(String typed, String zoneName, Instant now) {
    ZoneId zone;
    if (zoneName.isBlank()) zone = ZoneId.of("UTC");
    else {
      var known = zone(zoneName);
      if (known.isEmpty())
        return new When.Wrong("zone: '" + shorten(zoneName) + "' is not a time zone we know;"
            + " use a name such as Europe/Paris, America/New_York or UTC.");
      zone = known.get();
    }
    String text = typed.trim();
    LocalDateTime local;
    try {
      local = LocalDateTime.parse(text);
    } catch (DateTimeParseException notLocal) {
      try {
        return checked(Instant.parse(text), zone, Optional.empty(), typed, now);
      } catch (DateTimeParseException notInstant) {
        return new When.Wrong(
            "at: '" + shorten(typed) + "' is not a date and time such as 2026-12-01T09:00.");
      }
    }
    var rules = zone.getRules();
    var offsets = rules.getValidOffsets(local);
    if (offsets.isEmpty()) {
      var gap = rules.getTransition(local);
      return new When.Wrong("at: " + local.format(SHOWN_WITH_YEAR) + " does not exist in "
          + zone.getId() + ": the clocks go forward from "
          + gap.getDateTimeBefore().format(CLOCK)
          + " to " + gap.getDateTimeAfter().format(CLOCK) + " that night. Choose "
          + gap.getDateTimeAfter().format(CLOCK) + " or later, or a time before "
          + gap.getDateTimeBefore().format(CLOCK) + ".");
    }
    Optional<String> note = Optional.empty();
    if (offsets.size() > 1)
      note = Optional.of(local.format(CLOCK) + " happens twice in " + zone.getId()
          + " that night (the clocks go back): this is the first, at UTC" + offsets.get(0) + ".");
    // the earlier offset is the first of the two times, and is what atZone takes in an overlap
    Instant at = ZonedDateTime.ofLocal(local, zone, offsets.get(0)).toInstant();
    return checked(at, zone, note, typed, now);
  }

  private static When checked(
      Instant at, ZoneId zone, Optional<String> note, String typed, Instant now) {
    if (!at.isAfter(now))
      return new When.Wrong("at: " + show(at, zone, now) + " has passed; choose a time ahead.");
    if (at.isAfter(CampaignJson.LATEST_SCHEDULE))
      return new When.Wrong(
          "at: '" + shorten(typed) + "' is later than a campaign can be scheduled.");
    return new When.At(at, zone, note);
  }

  /**
   * An instant as a person reads a time in their zone, the zone named: "Tue 1 Dec, 09:00 Europe/Paris"
   * (with the year when it is not this one).
   */
  static String show(Instant at, ZoneId zone, Instant now) {
    ZonedDateTime local = at.atZone(zone);
    boolean thisYear = local.getYear() == now.atZone(zone).getYear();
    return local.format(thisYear ? SHOWN : SHOWN_WITH_YEAR) + " " + name(zone);
  }

  /** The value a {@code datetime-local} field shows for an instant, in the person's zone. */
  static String field(Instant at, ZoneId zone) {
    return LocalDateTime.ofInstant(at, zone).toString();
  }

  /** "Z" reads as nothing to most people; a region or an offset reads as itself. */
  static String name(ZoneId zone) {
    String id = zone.normalized().getId();
    return id.equals("Z") ? "UTC" : zone.getId();
  }

  private static String shorten(String typed) {
    return typed.length() <= 40 ? typed : typed.substring(0, 40) + "…";
  }
}
