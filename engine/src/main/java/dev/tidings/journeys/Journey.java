package dev.tidings.journeys;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One version of a journey: what lets a person in, the steps each entrant goes through (the first is
 * where they start), the goal that takes them out at once wherever they are, and the share of entrants
 * held out to measure what it caused. Built only valid: an {@link InvalidInputException} names each
 * field that is wrong, as the request that carried it names it.
 *
 * @param goal an activity (a purchase) that ends a person's journey as soon as they do it, or null
 * @param holdOut the share of entrants (0 to 0.5) who go through the journey without being sent
 *     anything, so their conversions are the measure of what the others' emails caused
 */
public record Journey(
    String name,
    Trigger trigger,
    EntryRules entry,
    List<Step> steps,
    @Nullable String goal,
    double holdOut) {
  public static final int MAX_STEPS = 100;
  public static final double MAX_HOLD_OUT = 0.5;
  static final Duration LONGEST_WAIT = Duration.ofDays(365);
  private static final Pattern STEP_ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");
  private static final Pattern ACTIVITY = Pattern.compile("[a-z][a-z0-9_]{0,39}");

  public Journey {
    steps = List.copyOf(steps);
    List<Problem> problems = problems(name, trigger, entry, steps, goal, holdOut);
    if (!problems.isEmpty()) throw InvalidInputException.of(problems);
  }

  /** Where every entrant starts. */
  public Step first() {
    return steps.getFirst();
  }

  /** The step with this id; an {@link IllegalArgumentException} for one the journey does not have. */
  public Step step(String id) {
    for (Step step : steps) if (step.id().equals(id)) return step;
    throw new IllegalArgumentException("the journey '" + name + "' has no step '" + id + "'");
  }

  private static List<Problem> problems(
      String name,
      Trigger trigger,
      EntryRules entry,
      List<Step> steps,
      @Nullable String goal,
      double holdOut) {
    var problems = new ArrayList<Problem>();
    // a reader hands over what it could not read as null (Problems.toValidate): said missing here
    if (name == null || name.isBlank()) problems.add(Problem.missing("name"));
    else if (name.length() > 200)
      problems.add(Problem.range("name", "name has at most 200 characters"));
    if (trigger == null) problems.add(Problem.missing("trigger"));
    else problems.addAll(triggerProblems(trigger));
    if (entry.reentryAfter().isNegative() || entry.reentryAfter().compareTo(LONGEST_WAIT) > 0)
      problems.add(Problem.range("entry.reentryAfter", "entry.reentryAfter must be 0 to 365 days"));
    if (goal != null && !ACTIVITY.matcher(goal).matches())
      problems.add(Problem.format("goal", "goal must be an activity such as purchase"));
    if (!(holdOut >= 0 && holdOut <= MAX_HOLD_OUT))
      problems.add(Problem.range("holdOut", "holdOut must be a share from 0 to " + MAX_HOLD_OUT));
    if (steps.isEmpty()) problems.add(Problem.missing("steps"));
    else if (steps.size() > MAX_STEPS)
      problems.add(Problem.range("steps", "a journey has at most " + MAX_STEPS + " steps"));
    else problems.addAll(stepProblems(steps));
    return problems;
  }

  private static List<Problem> triggerProblems(Trigger trigger) {
    var problems = new ArrayList<Problem>();
    switch (trigger) {
      case Trigger.Did did -> {
        if (!ACTIVITY.matcher(did.activity()).matches())
          problems.add(Problem.format(
              "trigger.activity", "trigger.activity must be an activity such as cart"));
        if (did.times() < 1 || did.times() > 100)
          problems.add(Problem.range("trigger.times", "trigger.times must be 1 to 100"));
        if (!positiveUpToAYear(did.within()))
          problems.add(Problem.range("trigger.within", "trigger.within must be up to 365 days"));
      }
      case Trigger.ProductNews news -> {
        if (!positiveUpToAYear(news.within()))
          problems.add(Problem.range("trigger.within", "trigger.within must be up to 365 days"));
      }
      case Trigger.Lapsed lapsed -> {
        if (!positiveUpToAYear(lapsed.since()) || lapsed.since().toDays() < 1)
          problems.add(Problem.range("trigger.since", "trigger.since must be 1 to 365 days"));
      }
      case Trigger.DateOf date -> {
        if (!ACTIVITY.matcher(date.attribute()).matches())
          problems.add(Problem.format(
              "trigger.attribute",
              "trigger.attribute must name a date attribute such as birthday"));
      }
      case Trigger.SignedUp signedUp -> {}
      case Trigger.Email email -> {}
    }
    return problems;
  }

  private static List<Problem> stepProblems(List<Step> steps) {
    var problems = new ArrayList<Problem>();
    Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < steps.size(); i++) {
      String id = steps.get(i).id();
      String field = "steps[" + i + "]";
      if (!STEP_ID.matcher(id).matches())
        problems.add(Problem.format(
            field + ".id", field + ".id must be 1 to 40 lowercase letters, digits, - or _"));
      else if (at.putIfAbsent(id, i) != null)
        problems.add(
            Problem.at(field + ".id", Problem.Rule.OTHER, "step id '" + id + "' is used twice"));
    }
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      String field = "steps[" + i + "]";
      problems.addAll(ownProblems(step, field));
      for (String next : step.nexts())
        if (next != null && !at.containsKey(next))
          problems.add(Problem.at(
              field, Problem.Rule.UNKNOWN, field + " goes to '" + next + "', which is no step"));
    }
    if (problems.isEmpty()) {
      String looping = loop(steps, at);
      if (looping != null)
        problems.add(Problem.of("the steps go round in a circle through '" + looping
            + "': a journey must end, so each step may only lead further on"));
    }
    return problems;
  }

  private static List<Problem> ownProblems(Step step, String field) {
    var problems = new ArrayList<Problem>();
    switch (step) {
      case Step.Wait wait -> {
        if (wait.until() instanceof Step.Until.For duration
            && !positiveUpToAYear(duration.duration()))
          problems.add(Problem.range(
              field + ".until", field + " waits more than nothing and at most 365 days"));
      }
      case Step.Send send -> {
        if (send.campaignId() < 1)
          problems.add(
              Problem.range(field + ".campaignId", field + ".campaignId must be a campaign's id"));
      }
      case Step.Branch branch -> {
        if (branch.condition() instanceof Step.Condition.Did did
            && !ACTIVITY.matcher(did.activity()).matches())
          problems.add(Problem.format(
              field + ".condition.activity",
              field + ".condition.activity must be an activity such as purchase"));
      }
      case Step.Split split -> {
        if (split.arms().size() < 2)
          problems.add(Problem.range(field + ".arms", field + " splits into at least 2 arms"));
        int sum = 0;
        for (Step.Split.Arm arm : split.arms()) {
          if (arm.percent() < 1)
            problems.add(
                Problem.range(field + ".arms", field + "'s arms each take at least 1 percent"));
          sum += arm.percent();
        }
        if (sum != 100)
          problems.add(Problem.range(
              field + ".arms", field + "'s arms add up to " + sum + " percent, not 100"));
      }
      case Step.Exit exit -> {}
    }
    return problems;
  }

  /** A step on a circle of steps, or null when every path ends. */
  private static @Nullable String loop(List<Step> steps, Map<String, Integer> at) {
    int[] state = new int[steps.size()]; // 0 unseen, 1 on the path, 2 done
    for (int start = 0; start < steps.size(); start++) {
      String found = visit(start, steps, at, state);
      if (found != null) return found;
    }
    return null;
  }

  private static @Nullable String visit(
      int i, List<Step> steps, Map<String, Integer> at, int[] state) {
    if (state[i] == 2) return null;
    if (state[i] == 1) return steps.get(i).id();
    state[i] = 1;
    for (String next : steps.get(i).nexts()) {
      Integer to = next == null ? null : at.get(next);
      if (to == null) continue; // the end, or a step the other checks already named unknown
      String found = visit(to, steps, at, state);
      if (found != null) return found;
    }
    state[i] = 2;
    return null;
  }

  private static boolean positiveUpToAYear(Duration duration) {
    return duration.isPositive() && duration.compareTo(LONGEST_WAIT) <= 0;
  }

  /** The activities a journey asks about (its goal and its branches), for what it must be told. */
  public Set<String> activitiesAsked() {
    Set<String> asked = new HashSet<>();
    if (goal != null) asked.add(goal);
    for (Step step : steps)
      if (step instanceof Step.Branch branch
          && branch.condition() instanceof Step.Condition.Did did) asked.add(did.activity());
    return asked;
  }
}
