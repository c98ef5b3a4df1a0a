package dev.tidings.journeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class JourneyTest {
  private static List<Problem> problems(Runnable build) {
    try {
      build.run();
    } catch (InvalidInputException e) {
      return e.asProblems();
    }
    throw new AssertionError("the journey was accepted");
  }

  private static Journey of(List<Step> steps) {
    return new Journey("J", new Trigger.SignedUp(), EntryRules.ANYONE, steps, null, 0);
  }

  @Test
  void a_step_that_goes_nowhere_known_is_named_with_the_step() {
    assertThat(problems(() -> of(List.of(new Step.Send("a", 1, "b")))))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("steps[0]", Problem.Rule.UNKNOWN));
  }

  @Test
  void ids_are_unique_and_well_formed() {
    assertThat(problems(() -> of(List.of(
            new Step.Send("a", 1, null), new Step.Send("a", 2, null), new Step.Exit("Not OK")))))
        .extracting(Problem::field)
        .containsExactly("steps[1].id", "steps[2].id");
  }

  @Test
  void a_journey_that_goes_round_in_a_circle_is_refused() {
    List<Problem> found = problems(() -> of(List.of(
        new Step.Wait("w", new Step.Until.For(Duration.ofDays(1)), "b"),
        new Step.Branch("b", new Step.Condition.Opened(), null, "w"))));
    assertThat(found).singleElement().satisfies(p -> assertThat(p.message()).contains("circle"));
  }

  @Test
  void split_arms_add_up_to_a_hundred() {
    assertThat(problems(() -> of(List.of(new Step.Split(
            "s", List.of(new Step.Split.Arm("a", 50, null), new Step.Split.Arm("b", 40, null)))))))
        .extracting(Problem::field)
        .containsExactly("steps[0].arms");
  }

  @Test
  void every_field_outside_its_range_is_named_at_once() {
    assertThat(problems(() -> new Journey(
            " ",
            new Trigger.Did("Add To Cart", 0, Duration.ZERO),
            new EntryRules(Duration.ofDays(-1), null),
            List.of(),
            "buy now",
            0.9)))
        .extracting(Problem::field)
        .containsExactlyInAnyOrder(
            "name",
            "trigger.activity",
            "trigger.times",
            "trigger.within",
            "entry.reentryAfter",
            "goal",
            "holdOut",
            "steps");
  }

  @Test
  void waits_are_more_than_nothing_and_at_most_a_year() {
    assertThat(problems(
            () -> of(List.of(new Step.Wait("w", new Step.Until.For(Duration.ofDays(400)), null)))))
        .extracting(Problem::field)
        .containsExactly("steps[0].until");
  }

  @Test
  void a_valid_journey_knows_the_activities_it_asks_about() {
    var journey = new Journey(
        "Browse",
        new Trigger.Did("view", 3, Duration.ofDays(1)),
        EntryRules.ANYONE,
        List.of(
            new Step.Branch("b", new Step.Condition.Did("cart"), "s", null),
            new Step.Send("s", 5, null)),
        "purchase",
        0.1);
    assertThat(journey.activitiesAsked()).containsExactlyInAnyOrder("cart", "purchase");
    assertThat(journey.first().id()).isEqualTo("b");
    assertThatThrownBy(() -> journey.step("nope")).isInstanceOf(IllegalArgumentException.class);
  }
}
