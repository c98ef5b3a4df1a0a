package dev.tidings.journeys;

import dev.tidings.StableShare;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.jspecify.annotations.Nullable;

/**
 * Decides what happens to a person next, from the journey, where they are and what they did: it passes
 * the waits that are due and the branches and splits on its way, and stops at the first thing that
 * must happen or be waited for. It reads and writes nothing, so every node decides alike, and the one
 * that acts records what it decided (the queue and the ledger make each step happen once).
 */
public final class Progress {
  private Progress() {}

  /**
   * What happens next to the person {@code instance} is, at {@code now}. The goal is looked at first:
   * a person who did it is taken out wherever they are, a wait included.
   */
  public static Decision next(Journey journey, Instance instance, Instant now, Facts facts) {
    if (journey.goal() != null && facts.did(journey.goal(), instance.enteredAt()))
      return new Decision.Exit(instance, Decision.Reason.GOAL);
    Instance at = instance;
    // the steps form no circle (Journey refuses one), so this walk ends within as many moves; a
    // branch or a split takes no time, so what follows it counts from when the person reached it
    for (int moves = 0; moves <= journey.steps().size(); moves++) {
      @Nullable String next;
      Instant arrives;
      switch (journey.step(at.at())) {
        case Step.Wait wait -> {
          Instant due = due(wait.until(), at.since(), facts);
          if (now.isBefore(due)) return new Decision.Sleep(at, due);
          next = wait.next();
          arrives = due;
        }
        case Step.Send send -> {
          return new Decision.Send(at, send);
        }
        case Step.Branch branch -> {
          next = holds(branch.condition(), at, facts) ? branch.then() : branch.otherwise();
          arrives = at.since();
        }
        case Step.Split split -> {
          next = arm(split, at).next();
          arrives = at.since();
        }
        case Step.Exit exit -> {
          return new Decision.Exit(at, Decision.Reason.COMPLETED);
        }
      }
      if (next == null) return new Decision.Exit(at, Decision.Reason.COMPLETED);
      at = at.movedTo(next, arrives);
    }
    throw new IllegalStateException("the journey '" + journey.name() + "' did not end a walk");
  }

  /** Where the person is once the step's email went (or, held out, would have gone) at {@code sent}. */
  public static @Nullable Instance afterSending(Step.Send step, Instance instance, Instant sent) {
    return step.next() == null ? null : instance.movedTo(step.next(), sent);
  }

  /** Which arm of a split the person takes: a stable share per journey version, step and entry. */
  static Step.Split.Arm arm(Step.Split split, Instance instance) {
    double unit = StableShare.unit("journey-split:" + instance.journeyId() + ":"
        + instance.version() + ":" + split.id() + ":" + instance.subscriberId() + ":"
        + instance.entry());
    int point = (int) Math.floor(unit * 100);
    int upTo = 0;
    for (Step.Split.Arm arm : split.arms()) {
      upTo += arm.percent();
      if (point < upTo) return arm;
    }
    return split.arms().getLast();
  }

  private static boolean holds(Step.Condition condition, Instance at, Facts facts) {
    return switch (condition) {
      case Step.Condition.Did did -> facts.did(did.activity(), at.enteredAt());
      case Step.Condition.Opened opened -> facts.opened(at.enteredAt());
      case Step.Condition.Clicked clicked -> facts.clicked(at.enteredAt());
      case Step.Condition.InSegment segment -> facts.inSegment(segment.segment());
    };
  }

  /** When a wait begun at {@code from} is over. */
  static Instant due(Step.Until until, Instant from, Facts facts) {
    return switch (until) {
      case Step.Until.For duration -> from.plus(duration.duration());
      case Step.Until.TimeOfDay time -> nextTimeOfDay(time.time(), from, facts.zone());
      case Step.Until.BestHour best -> facts.bestHourAfter(from);
    };
  }

  /**
   * The first instant at or after {@code from} when it is {@code time} in {@code zone}; on a day when
   * that time does not exist (a clock moved forward), the moment the clock jumps past it.
   */
  static Instant nextTimeOfDay(LocalTime time, Instant from, ZoneId zone) {
    LocalDate day = from.atZone(zone).toLocalDate();
    for (int days = 0; days < 3; days++) {
      Instant candidate = ZonedDateTime.of(day.plusDays(days), time, zone).toInstant();
      if (!candidate.isBefore(from)) return candidate;
    }
    throw new IllegalStateException("no " + time + " in " + zone + " within two days of " + from);
  }
}
