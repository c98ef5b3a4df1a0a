package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.Condition;
import dev.tidings.campaign.SendTime;
import dev.tidings.recommend.blend.Algorithm;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CampaignFormTest {
  private static FormFields.Fields form(String body) {
    return (FormFields.Fields) FormFields.parse(body);
  }

  private static final String FILLED =
      "name=Spring+sale&fromEmail=news%40shop.example&fromName=Shop"
          + "&subject=Hello+%7B%7Bsubscriber.firstName%7D%7D&html=%3Cp%3EHi%3C%2Fp%3E%0D%0A%3Cp%3E%3Ca+href"
          + "%3D%22%7B%7BunsubscribeUrl%7D%7D%22%3EUnsubscribe%3C%2Fa%3E%3C%2Fp%3E"
          + "&text=Hi%0D%0A%7B%7BunsubscribeUrl%7D%7D&slots=0&priority=4&rate=50"
          + "&c0.type=country&c0.value=GB%2C+ie&c1.type=clicked&c1.value=30&c2.type=&c2.value=ignored"
          + "&c3.type=follows&c3.value=brand%3Aacme";

  @Test
  void a_filled_form_reads_as_the_api_reads_its_json() {
    var definition = CampaignJson.fromJson(CampaignForm.of(form(FILLED)).toJson(Optional.empty()));
    assertThat(definition.name()).isEqualTo("Spring sale");
    assertThat(definition.from().email()).isEqualTo("news@shop.example");
    assertThat(definition.html()).as("a textarea's CR LF kept as LF").doesNotContain("\r");
    assertThat(definition.ratePerSecond()).isEqualTo(50.0);
    assertThat(definition.audience()).isInstanceOf(Audience.Segment.class);
    var conditions = ((Audience.Segment) definition.audience()).conditions();
    assertThat(conditions)
        .as("the row with no kind is dropped")
        .hasSize(3)
        .contains(new Condition.ClickedWithin(30));
    assertThat(conditions.getFirst())
        .isEqualTo(new Condition.FieldIn(Condition.Field.COUNTRY, List.of("GB", "ie")));
  }

  @Test
  void a_stored_definition_comes_back_to_the_same_form() {
    var definition = CampaignJson.fromJson(CampaignForm.of(form(FILLED)).toJson(Optional.empty()));
    var again = CampaignJson.fromJson(CampaignForm.of(definition).toJson(Optional.empty()));
    assertThat(again).isEqualTo(definition);
  }

  @Test
  void what_is_not_a_number_reaches_the_api_as_typed_and_is_named() {
    String body = FILLED.replace("slots=0", "slots=three").replace("c1.value=30", "c1.value=soon");
    var form = CampaignForm.of(form(body));
    assertThatThrownBy(() -> CampaignJson.fromJson(form.toJson(Optional.empty())))
        .isInstanceOf(InvalidInputException.class)
        .satisfies(e -> {
          var problems = ((InvalidInputException) e).asProblems();
          assertThat(problems)
              .anySatisfy(
                  p -> assertThat(EditorFields.of(p.field(), form).slot()).isEqualTo("slots"));
          assertThat(problems)
              .anySatisfy(
                  p -> assertThat(EditorFields.of(p.field(), form).slot()).isEqualTo("c1"));
        });
  }

  @Test
  void send_time_per_subscriber_round_trips_with_its_hold_out_in_percent() {
    String body = FILLED + "&sendTime=per-subscriber&within=PT12H&holdout=25";
    var definition = CampaignJson.fromJson(CampaignForm.of(form(body)).toJson(Optional.empty()));
    assertThat(definition.sendTime())
        .isEqualTo(new SendTime(SendTime.Mode.PER_SUBSCRIBER, Duration.ofHours(12), 0.25));
    var shown = CampaignForm.of(definition);
    assertThat(shown.sendTimeMode()).isEqualTo("per-subscriber");
    assertThat(shown.sendTimeWithin()).isEqualTo("PT12H");
    assertThat(shown.holdoutPercent()).isEqualTo("25");
    assertThat(CampaignJson.fromJson(shown.toJson(Optional.empty()))).isEqualTo(definition);
    var atOnce = CampaignJson.fromJson(
        CampaignForm.of(form(FILLED + "&sendTime=at-once&within=PT12H")).toJson(Optional.empty()));
    assertThat(atOnce.sendTime()).isEqualTo(SendTime.AT_ONCE);
  }

  @Test
  void a_bad_send_time_window_is_named_at_its_field() {
    String body = FILLED + "&sendTime=per-subscriber&within=PT30M&holdout=60";
    var form = CampaignForm.of(form(body));
    assertThatThrownBy(() -> CampaignJson.fromJson(form.toJson(Optional.empty())))
        .isInstanceOf(InvalidInputException.class)
        .satisfies(e -> {
          var problems = ((InvalidInputException) e).asProblems();
          assertThat(problems)
              .extracting(Problem::field)
              .containsExactlyInAnyOrder("sendTime.within", "sendTime.holdout");
          assertThat(problems)
              .allSatisfy(
                  p -> assertThat(EditorFields.of(p.field(), form).slot()).isEqualTo("sendTime"));
          assertThat(((InvalidInputException) e).problems())
              .anySatisfy(p -> assertThat(p).startsWith("sendTime.within"))
              .anySatisfy(p -> assertThat(p).startsWith("sendTime.holdout"));
        });
  }

  @Test
  void each_field_path_of_the_api_is_placed_at_its_form_field() {
    var form = CampaignForm.of(form(FILLED));
    assertThat(EditorFields.of("html", form).slot()).isEqualTo("html");
    assertThat(EditorFields.of("from", form).slot()).isEqualTo("fromEmail");
    assertThat(EditorFields.of("from.email", form).slot()).isEqualTo("fromEmail");
    assertThat(EditorFields.of("audience.conditions[4].values", form).slot()).isEqualTo("c4");
    assertThat(EditorFields.of("audience.conditions", form).slot()).isEqualTo("audience");
    assertThat(EditorFields.of("experiment.variants", form).slot()).isEqualTo("experiment");
    assertThat(EditorFields.of("experiment.variants[1].name", form).label())
        .isEqualTo("variant 2 name");
    assertThat(EditorFields.of("ratePerSecond", form).slot()).isEqualTo("rate");
    assertThat(EditorFields.of("", form).slot()).isEqualTo("form");
    assertThat(EditorFields.of("somethingElse", form).slot()).isEqualTo("form");
    assertThat(EditorFields.of("audience.conditions[0].values", form).hint())
        .as("a condition's hint is its row's kind's")
        .isEqualTo("two-letter codes, comma-separated: GB, IE");
  }

  @Test
  void an_experiment_takes_its_share_in_percent_and_keeps_blank_parts_as_the_campaigns() {
    String body = FILLED
        + "&experiment=on&allocation=ab&metric=human_open&testShare=25"
        + "&v0.name=A&v1.name=B&v1.subject=Other+subject&v2.name=&v2.subject="
        + "&v1.alg.popularity=on&v1.alg.co_occurrence=on";
    var definition = CampaignJson.fromJson(CampaignForm.of(form(body)).toJson(Optional.empty()));
    var experiment = definition.experiment().orElseThrow();
    assertThat(experiment.testShare()).isEqualTo(0.25);
    assertThat(experiment.variants()).hasSize(2);
    assertThat(experiment.variants().getFirst().subject()).isEmpty();
    assertThat(experiment.variants().get(1).subject()).contains("Other subject");
    assertThat(experiment.variants().get(1).algorithms())
        .containsExactlyInAnyOrder(Algorithm.POPULARITY, Algorithm.CO_OCCURRENCE);
    assertThat(experiment.variants().getFirst().algorithms()).isEmpty();
    assertThat(CampaignJson.fromJson(CampaignForm.of(definition).toJson(Optional.empty())))
        .as("and back through the form")
        .isEqualTo(definition);
  }

  @Test
  void a_block_goes_before_the_end_of_the_body() {
    assertThat(CampaignEditor.insertBeforeBodyEnd("<html><body><p>a</p></BODY></html>", "<hr>"))
        .isEqualTo("<html><body><p>a</p><hr>\n</BODY></html>");
    assertThat(CampaignEditor.insertBeforeBodyEnd("<p>a</p>", "<hr>")).isEqualTo("<p>a</p>\n<hr>");
  }
}
