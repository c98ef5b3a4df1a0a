package dev.tidings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** A problem keeps its field path through nesting, and there is one wording of "not a number". */
class ProblemTest {
  @Test
  void a_value_that_is_not_a_number_has_one_wording_and_names_its_field() {
    var problem = Problem.notANumber("minImpressions", "'x'");
    assertThat(problem.field()).isEqualTo("minImpressions");
    assertThat(problem.rule()).isEqualTo(Problem.Rule.FORMAT);
    assertThat(problem.kind()).isEqualTo(ErrorKind.INVALID);
    assertThat(problem.message()).isEqualTo("minImpressions must be a number, got 'x'");
  }

  @Test
  void the_json_field_helpers_name_the_field_they_read() {
    var problems = new Problems();
    JsonFields.number(problems, Json.MAPPER.getNodeFactory().stringNode("7"), "rate", 0, 9);
    JsonFields.whole(problems, Json.MAPPER.getNodeFactory().numberNode(12), "slots", 0, 9);
    JsonFields.string(problems, Json.MAPPER.getNodeFactory().numberNode(1), "subject");
    assertThat(problems.found())
        .extracting(Problem::field, Problem::rule)
        .containsExactly(
            Tuple.tuple("rate", Problem.Rule.FORMAT),
            Tuple.tuple("slots", Problem.Rule.RANGE),
            Tuple.tuple("subject", Problem.Rule.FORMAT));
    assertThat(problems.list().getFirst()).isEqualTo("rate must be a number, got a string");
  }

  @Test
  void a_nested_problem_goes_under_its_parents_path_in_field_and_sentence() {
    var inner = new Problems();
    inner.add(Problem.range("holdout", "holdout must be a number from 0 to 0.5"));
    inner.add("a rule of the part as a whole");
    var outer = new Problems();
    outer.addUnder("sendTime", inner);
    assertThat(outer.found())
        .extracting(Problem::field)
        .containsExactly("sendTime.holdout", "sendTime");
    assertThat(outer.list())
        .containsExactly(
            "sendTime.holdout must be a number from 0 to 0.5",
            "sendTime.a rule of the part as a whole");
  }

  @Test
  void an_element_that_breaks_a_rule_is_kept_with_the_others_under_its_path() {
    var problems = new Problems();
    String built = problems.element("variants[1]", "variant B: ", () -> {
      throw new InvalidInputException(Problem.missing("name"));
    });
    assertThat(built).isNull();
    assertThat(problems.found()).singleElement().satisfies(problem -> {
      assertThat(problem.field()).isEqualTo("variants[1].name");
      assertThat(problem.rule()).isEqualTo(Problem.Rule.MISSING);
      assertThat(problem.message()).isEqualTo("variant B: missing required field 'name'");
    });
  }

  @Test
  void invalid_input_keeps_each_problem_with_its_field_and_its_sentences_as_before() {
    var refused = InvalidInputException.of(
        List.of(Problem.missing("from"), Problem.range("slots", "slots must be within 0..20")));
    assertThat(refused.problems())
        .containsExactly("missing required field 'from'", "slots must be within 0..20");
    assertThat(refused.asProblems()).extracting(Problem::field).containsExactly("from", "slots");
    assertThat(refused.detail())
        .isEqualTo("missing required field 'from'; slots must be within 0..20");
    assertThat(new InvalidInputException("about the whole").asProblems())
        .singleElement()
        .satisfies(problem -> assertThat(problem.located()).isFalse());
  }

  @Test
  void a_failure_that_is_not_a_refusal_is_never_held_as_one() {
    assertThat(Attempt.of(() -> {
          throw new InvalidInputException("no");
        }))
        .isInstanceOf(Attempt.Refused.class);
    assertThat(Attempt.of(() -> "yes")).isEqualTo(new Attempt.Done<>("yes"));
    assertThatThrownBy(() -> Attempt.of(() -> {
          throw new TidingsException("ours");
        }))
        .isInstanceOf(TidingsException.class)
        .hasMessage("ours");
  }
}
