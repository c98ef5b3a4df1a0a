package dev.tidings.journeys;

import dev.tidings.campaign.Audience;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One person's facts as a test sets them: what they did when, and where they live. */
final class Scenario implements Facts {
  private record Done(String activity, Instant at) {}

  private final List<Done> done = new ArrayList<>();
  private final List<Instant> opens = new ArrayList<>();
  private final List<Instant> clicks = new ArrayList<>();
  private final Set<Audience> segments = new HashSet<>();
  private ZoneId zone = ZoneId.of("UTC");
  private int bestHour = 9;

  Scenario doing(String activity, Instant at) {
    done.add(new Done(activity, at));
    return this;
  }

  Scenario openedAt(Instant at) {
    opens.add(at);
    return this;
  }

  Scenario clickedAt(Instant at) {
    clicks.add(at);
    return this;
  }

  Scenario memberOf(Audience segment) {
    segments.add(segment);
    return this;
  }

  Scenario livingIn(ZoneId zone) {
    this.zone = zone;
    return this;
  }

  Scenario bestHour(int hour) {
    this.bestHour = hour;
    return this;
  }

  @Override
  public boolean did(String activity, Instant since) {
    return done.stream().anyMatch(d -> d.activity().equals(activity) && !d.at().isBefore(since));
  }

  @Override
  public boolean opened(Instant since) {
    return opens.stream().anyMatch(at -> !at.isBefore(since));
  }

  @Override
  public boolean clicked(Instant since) {
    return clicks.stream().anyMatch(at -> !at.isBefore(since));
  }

  @Override
  public boolean inSegment(Audience segment) {
    return segments.contains(segment);
  }

  @Override
  public ZoneId zone() {
    return zone;
  }

  @Override
  public Instant bestHourAfter(Instant after) {
    return Progress.nextTimeOfDay(LocalTime.of(bestHour, 0), after, zone);
  }
}
