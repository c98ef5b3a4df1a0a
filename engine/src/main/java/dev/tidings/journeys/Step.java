package dev.tidings.journeys;

import dev.tidings.campaign.Audience;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One step of a journey, named by an id unique in its journey. A step names the steps it may go to; a
 * {@code next} of null ends the journey there.
 */
public sealed interface Step {
  String id();

  /** The ids this step may go to, null for "the journey ends", in the order the step lists them. */
  List<@Nullable String> nexts();

  /** Waits, then goes on. */
  record Wait(String id, Until until, @Nullable String next) implements Step {
    @Override
    public List<@Nullable String> nexts() {
      return listOf(next);
    }
  }

  /** Sends the campaign's content to the person, with the entry's products, then goes on. */
  record Send(String id, long campaignId, @Nullable String next) implements Step {
    @Override
    public List<@Nullable String> nexts() {
      return listOf(next);
    }
  }

  /** Goes to {@code then} when the condition holds for what happened since the person entered. */
  record Branch(
      String id,
      Condition condition,
      @Nullable String then,
      @Nullable String otherwise) implements Step {
    @Override
    public List<@Nullable String> nexts() {
      return listOf(then, otherwise);
    }
  }

  /** Sends each person down one arm, a stable share of entrants each (the percents add up to 100). */
  record Split(String id, List<Arm> arms) implements Step {
    public Split {
      arms = List.copyOf(arms);
    }

    public record Arm(String label, int percent, @Nullable String next) {}

    @Override
    public List<@Nullable String> nexts() {
      var nexts = new ArrayList<@Nullable String>(arms.size());
      for (Arm arm : arms) nexts.add(arm.next());
      return nexts;
    }
  }

  /** Ends the journey here. */
  record Exit(String id) implements Step {
    @Override
    public List<@Nullable String> nexts() {
      return List.of();
    }
  }

  /** How long a wait lasts. */
  sealed interface Until {
    /** A fixed time after the person arrived at the wait. */
    record For(Duration duration) implements Until {}

    /** The next time it is this time of day where the person lives. */
    record TimeOfDay(LocalTime time) implements Until {}

    /** The person's own best hour within the next day, as the send-time planner finds it. */
    record BestHour() implements Until {}
  }

  /** What a branch asks about the time since the person entered. */
  sealed interface Condition {
    /** They did the activity (purchased, viewed, ...). */
    record Did(String activity) implements Condition {}

    /** They opened one of this journey's emails. */
    record Opened() implements Condition {}

    /** They clicked one of this journey's emails. */
    record Clicked() implements Condition {}

    /** They are in the segment now (conditions as a campaign's audience states them). */
    record InSegment(Audience segment) implements Condition {}
  }

  private static List<@Nullable String> listOf(@Nullable String... ids) {
    var list = new ArrayList<@Nullable String>(ids.length);
    for (String id : ids) list.add(id);
    return list;
  }
}
