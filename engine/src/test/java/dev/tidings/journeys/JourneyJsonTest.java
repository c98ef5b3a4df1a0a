package dev.tidings.journeys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.Condition;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class JourneyJsonTest {
  private static List<String> fields(String json) {
    try {
      JourneyJson.fromJson(Json.MAPPER.readTree(json));
    } catch (InvalidInputException e) {
      return e.asProblems().stream().map(Problem::field).toList();
    }
    throw new AssertionError("accepted: " + json);
  }

  @Test
  void every_kind_of_trigger_step_and_condition_reads_back_as_it_was_written() {
    var journey = new Journey(
        "Everything",
        new Trigger.ProductNews(
            Trigger.News.BACK_IN_STOCK, Trigger.Interest.CARTED, Duration.ofDays(14)),
        new EntryRules(
            Duration.ofDays(3),
            new Audience.Segment(
                List.of(new Condition.FieldIn(Condition.Field.COUNTRY, List.of("DE"))))),
        List.of(
            new Step.Wait("w1", new Step.Until.For(Duration.ofHours(1)), "w2"),
            new Step.Wait("w2", new Step.Until.TimeOfDay(LocalTime.of(9, 30)), "w3"),
            new Step.Wait("w3", new Step.Until.BestHour(), "b"),
            new Step.Branch("b", new Step.Condition.Did("purchase"), null, "b2"),
            new Step.Branch(
                "b2",
                new Step.Condition.InSegment(
                    new Audience.Segment(List.of(new Condition.LocaleIn(List.of("de"))))),
                "s",
                "b3"),
            new Step.Branch("b3", new Step.Condition.Opened(), "s", "b4"),
            new Step.Branch("b4", new Step.Condition.Clicked(), "s", "ab"),
            new Step.Split(
                "ab",
                List.of(new Step.Split.Arm("a", 50, "s"), new Step.Split.Arm("b", 50, "end"))),
            new Step.Send("s", 11, "end"),
            new Step.Exit("end")),
        "purchase",
        0.1);
    var read = JourneyJson.fromJson(JourneyJson.toJson(journey));
    assertThat(read).isEqualTo(journey);
    for (Trigger trigger : List.of(
        new Trigger.SignedUp(),
        new Trigger.Did("view", 3, Duration.ofDays(1)),
        new Trigger.Email(Trigger.EmailStep.CLICKED),
        new Trigger.Lapsed(Duration.ofDays(90)),
        new Trigger.DateOf("birthday"))) {
      var other =
          new Journey("T", trigger, EntryRules.ANYONE, List.of(new Step.Exit("end")), null, 0);
      assertThat(JourneyJson.fromJson(JourneyJson.toJson(other))).isEqualTo(other);
    }
  }

  @Test
  void a_minimal_journey_takes_the_defaults() {
    Journey read = JourneyJson.fromJson(Json.MAPPER.readTree("""
        {"name": "Welcome", "trigger": {"type": "signed_up"},
         "steps": [{"id": "hello", "type": "send", "campaignId": 3}]}"""));
    assertThat(read.entry()).isEqualTo(EntryRules.ANYONE);
    assertThat(read.holdOut()).isZero();
    assertThat(read.goal()).isNull();
    assertThat(read.first()).isEqualTo(new Step.Send("hello", 3, null));
  }

  @Test
  void what_is_wrong_is_named_by_the_field_the_client_wrote_all_at_once() {
    assertThat(fields("""
            {"name": "X", "colour": "red",
             "trigger": {"type": "did", "activity": "cart", "within": "an hour"},
             "steps": [{"id": "a", "type": "wait", "for": "PT1H", "untilBestHour": true},
                       {"id": "b", "type": "send", "campaignId": "11"},
                       {"id": "c", "type": "teleport"}]}"""))
        .containsExactlyInAnyOrder(
            "colour", "trigger.within", "steps[0]", "steps[1].campaignId", "steps[2].type");
  }

  @Test
  void the_journeys_own_rules_name_the_steps_by_their_place() {
    assertThat(fields("""
            {"name": "X", "trigger": {"type": "signed_up"}, "holdOut": 0.8,
             "steps": [{"id": "a", "type": "send", "campaignId": 1, "next": "nowhere"}]}""")).containsExactlyInAnyOrder("holdOut", "steps[0]");
  }

  @Test
  void a_split_reads_its_arms_and_says_which_is_wrong() {
    assertThat(fields("""
            {"name": "X", "trigger": {"type": "signed_up"},
             "steps": [{"id": "s", "type": "split",
                        "arms": [{"label": "a", "percent": 0}, {"percent": 50}]}]}"""))
        .containsExactlyInAnyOrder("steps[0].arms[0].percent", "steps[0].arms[1].label");
  }

  @Test
  void not_an_object_and_missing_parts_are_said_plainly() {
    assertThat(fields("""
            {"trigger": "signed_up", "steps": {"id": "a"}}""")).containsExactlyInAnyOrder("name", "trigger", "steps");
  }

  @Test
  void a_segment_is_a_campaign_audience_and_its_problems_are_named_where_the_journey_holds_it() {
    assertThat(fields("""
        {"name": "S", "trigger": {"type": "signed_up"},
         "entry": {"segment": {"type": "segment", "conditions": [{"type": "teleport"}]}},
         "steps": [{"id": "b", "type": "branch", "if": {"type": "in_segment"}, "then": null},
                   {"id": "s", "type": "send", "campaignId": 1}]}"""))
        .containsExactlyInAnyOrder("entry.segment.conditions[0].type", "steps[0].if.segment");
  }
}
