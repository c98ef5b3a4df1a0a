package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.audience.TargetType;
import dev.tidings.recommend.blend.Algorithm;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class CampaignJsonTest {
  @Test
  void a_valid_campaign_reads_with_its_values_and_defaults() {
    ObjectNode json = Fixtures.json();
    json.remove("priority");
    json.remove("ratePerSecond");
    CampaignDefinition definition = CampaignJson.fromJson(json);
    assertThat(definition.name()).isEqualTo("Autumn edit");
    assertThat(definition.from().email()).isEqualTo("news@shop.example");
    assertThat(definition.from().name()).contains("Shop");
    assertThat(definition.replyTo().orElseThrow().email()).isEqualTo("care@shop.example");
    assertThat(definition.slots()).isEqualTo(6);
    assertThat(definition.priority()).isEqualTo(CampaignJson.DEFAULT_PRIORITY);
    assertThat(definition.ratePerSecond()).isEqualTo(CampaignJson.DEFAULT_RATE);
    assertThat(definition.audience()).isEqualTo(new Audience.All());
    assertThat(definition.definitionState()).isEqualTo(CampaignState.DRAFT);
  }

  @Test
  void writing_and_reading_back_gives_the_same_definition() {
    ObjectNode json = Fixtures.json();
    json.put("scheduledAt", "2030-01-02T03:04:05Z");
    json.set("audience", Json.MAPPER.readTree("""
        {"type":"segment","conditions":[
          {"type":"field","field":"country","values":["AT","DE"]},
          {"type":"locale","locales":["de"]},
          {"type":"near","latitude":48.2,"longitude":16.37,"radiusKm":25},
          {"type":"follows","targetType":"brand","targetId":"velin"},
          {"type":"notOpened","campaignId":7},
          {"type":"opened","campaignId":8},
          {"type":"clicked","withinDays":30},
          {"type":"openedWithin","days":14}]}"""));
    CampaignDefinition definition = CampaignJson.fromJson(json);
    assertThat(CampaignJson.fromJson(CampaignJson.toJson(definition))).isEqualTo(definition);
    assertThat(definition.scheduledAt()).contains(Instant.parse("2030-01-02T03:04:05Z"));
    assertThat(definition.definitionState()).isEqualTo(CampaignState.SCHEDULED);
    assertThat(((Audience.Segment) definition.audience()).conditions())
        .containsExactly(
            new Condition.FieldIn(Condition.Field.COUNTRY, List.of("AT", "DE")),
            new Condition.LocaleIn(List.of("de")),
            new Condition.Near(48.2, 16.37, 25),
            new Condition.Follows(TargetType.BRAND, "velin"),
            new Condition.OpenedCampaign(7, false),
            new Condition.OpenedCampaign(8, true),
            new Condition.ClickedWithin(30),
            new Condition.OpenedWithin(14));
  }

  @Test
  void an_audience_reads_alone_and_each_bad_condition_names_its_field() {
    var audience = CampaignJson.audienceFromJson(Json.MAPPER.readTree(
        "{\"type\":\"segment\",\"conditions\":[{\"type\":\"openedWithin\",\"days\":7}]}"));
    assertThat(audience).isEqualTo(new Audience.Segment(List.of(new Condition.OpenedWithin(7))));
    assertThat(CampaignJson.audienceToJson(audience).toString())
        .isEqualTo(
            "{\"type\":\"segment\",\"conditions\":[{\"type\":\"openedWithin\",\"days\":7}]}");
    assertThat(CampaignJson.audienceFromJson(null)).isEqualTo(new Audience.All());
    assertThatThrownBy(() -> CampaignJson.audienceFromJson(Json.MAPPER.readTree("""
            {"type":"segment","conditions":[{"type":"openedWithin","days":0},
              {"type":"openedWithin"},{"type":"openedWithin","days":"7"}]}""")))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .anySatisfy(p -> assertThat(p).startsWith("audience.conditions[0].days"))
                .anySatisfy(p -> assertThat(p).startsWith("audience.conditions[1].days"))
                .anySatisfy(p -> assertThat(p).startsWith("audience.conditions[2].days")));
  }

  @Test
  void a_schedule_later_than_can_be_stored_is_refused_by_name() {
    ObjectNode json = Fixtures.json();
    json.put("scheduledAt", "+999999-01-01T00:00:00Z");
    assertThatThrownBy(() -> CampaignJson.fromJson(json))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .containsExactly("scheduledAt must be no later than 9999-12-31T23:59:59Z but was"
                    + " \"+999999-01-01T00:00:00Z\""));
    json.put("scheduledAt", CampaignJson.LATEST_SCHEDULE.toString());
    assertThat(CampaignJson.fromJson(json).scheduledAt()).contains(CampaignJson.LATEST_SCHEDULE);
  }

  @Test
  void every_problem_is_reported_at_once() {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("subject", "Hi\r\nBcc: victim@example.com");
    json.put("slots", 13);
    json.put("priority", 10);
    json.put("ratePerSecond", 0);
    json.put("scheduledAt", "tomorrow");
    json.put("colour", "blue");
    assertThatThrownBy(() -> CampaignJson.fromJson(json))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .contains(
                    "missing required field 'name'",
                    "missing required field 'from'",
                    "missing required field 'html'",
                    "missing required field 'text'",
                    "subject must not contain a line break (header injection)",
                    "slots must be a whole number within 0..12 but was 13",
                    "priority must be a whole number within 0..9 but was 10",
                    "ratePerSecond must be a number above 0 and at most 1000000 but was 0",
                    "scheduledAt must be an ISO-8601 instant such as 2026-12-01T09:00:00Z but was"
                        + " \"tomorrow\"")
                .anyMatch(p -> p.startsWith("unknown field 'colour'")));
  }

  @Test
  void a_digest_reads_with_its_defaults_writes_back_and_says_what_is_wrong() {
    ObjectNode json = Fixtures.json();
    json.putObject("digest");
    var digest = CampaignJson.fromJson(json);
    assertThat(digest.digest()).contains(DigestOptions.defaults());
    assertThat(CampaignJson.fromJson(CampaignJson.toJson(digest))).isEqualTo(digest);
    assertThat(CampaignJson.fromJson(Fixtures.json()).digest()).isEmpty();

    json.putObject("digest").put("lookBackDays", 31).put("minimum", 0).put("every", "week");
    assertThatThrownBy(() -> CampaignJson.fromJson(json))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .containsExactlyInAnyOrder(
                    "unknown field 'digest.every'; a digest has lookBackDays, minimum",
                    "digest.lookBackDays must be a whole number within 1..30 but was 31",
                    "digest.minimum must be a whole number within 1..1000 but was 0"));
    json.put("digest", 7);
    assertThatThrownBy(() -> CampaignJson.fromJson(json))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("digest must be an object");
  }

  @Test
  void an_experiment_reads_writes_back_and_its_rollout_goes_to_the_rest_with_the_winner() {
    ObjectNode json = Fixtures.json();
    var experiment =
        json.putObject("experiment").put("allocation", "ab").put("metric", "human_open");
    experiment
        .putArray("variants")
        .add(Json.MAPPER.createObjectNode().put("name", "A"))
        .add(Json.MAPPER
            .createObjectNode()
            .put("name", "B")
            .put("subject", "B for {{subscriber.name}}")
            .set(
                "algorithms",
                Json.MAPPER.createArrayNode().add("popularity").add("co_occurrence")));
    var definition = CampaignJson.fromJson(json);
    assertThat(definition.experiment().orElseThrow().variants().get(1).algorithms())
        .containsExactlyInAnyOrder(Algorithm.POPULARITY, Algorithm.CO_OCCURRENCE);
    var read = definition.experiment().orElseThrow();
    assertThat(read.testShare()).isEqualTo(Experiment.DEFAULT_TEST_SHARE);
    assertThat(read.alpha()).isEqualTo(Experiment.DEFAULT_ALPHA);
    assertThat(CampaignJson.fromJson(CampaignJson.toJson(definition))).isEqualTo(definition);
    assertThat(definition.variant(0)).isSameAs(definition);
    assertThat(definition.variant(1).subject()).isEqualTo("B for {{subscriber.name}}");
    assertThat(definition.variant(1).html()).isEqualTo(definition.html());

    var rollout = definition.rollout(9, 1);
    assertThat(rollout.name()).isEqualTo("Autumn edit (winner: B)");
    assertThat(rollout.subject()).isEqualTo("B for {{subscriber.name}}");
    assertThat(rollout.experiment()).isEmpty();
    assertThat(rollout.audience())
        .isEqualTo(new Audience.Segment(List.of(new Condition.InExperiment(9, false))));
  }

  @Test
  void a_bad_experiment_says_what_is_wrong_in_every_part() {
    ObjectNode json = Fixtures.json();
    var experiment = json.putObject("experiment")
        .put("allocation", "coin")
        .put("testShare", 1.5)
        .put("alpha", 0.5)
        .put("winner", "B");
    experiment
        .putArray("variants")
        .add(Json.MAPPER.createObjectNode().put("name", "A"))
        .add(Json.MAPPER
            .createObjectNode()
            .put("name", "A")
            .put("subject", "x\ny")
            .put("colour", 1))
        .add(Json.MAPPER
            .createObjectNode()
            .put("name", "C")
            .set("algorithms", Json.MAPPER.createArrayNode().add("magic")));
    assertThatThrownBy(() -> CampaignJson.fromJson(json))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .contains(
                    "experiment.allocation must be one of ab, bandit but was \"coin\"",
                    "experiment.missing required field 'metric' (human_open, human_click)",
                    "experiment.testShare must be a number above 0 and at most 1.0 but was 1.5",
                    "experiment.alpha must be a number above 0 and at most 0.2 but was 0.5",
                    "experiment.variants[1]: unknown field 'colour'; a variant has algorithms,"
                        + " html, name, subject, text",
                    "experiment.variants[1].subject must not contain a line break (header"
                        + " injection)",
                    "experiment.variants[1].name 'A' is taken")
                .anyMatch(p -> p.startsWith("experiment.unknown field 'winner'"))
                .anyMatch(p -> p.startsWith(
                    "experiment.variants[2].algorithms: \"magic\" is not one of popularity")));
    json.putObject("experiment")
        .put("allocation", "bandit")
        .put("metric", "human_click")
        .putArray("variants")
        .add(Json.MAPPER.createObjectNode().put("name", "only"));
    assertThatThrownBy(() -> CampaignJson.fromJson(json))
        .hasMessageContaining("experiment.variants must be a list of 2 to 5 variants");
  }

  @Test
  void a_sender_name_with_a_line_break_is_refused() {
    ObjectNode json = Fixtures.json();
    json.set(
        "from",
        Json.MAPPER
            .createObjectNode()
            .put("email", "news@shop.example")
            .put("name", "Shop\r\nBcc: victim@example.com"));
    assertThatThrownBy(() -> CampaignJson.fromJson(json))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .containsExactly(
                    "from: display name must not contain a line break or NUL (header injection)"));
  }

  @Test
  void a_bad_address_and_bad_conditions_say_what_is_wrong() {
    ObjectNode json = Fixtures.json();
    json.put("replyTo", "not an address");
    json.set("audience", Json.MAPPER.readTree("""
        {"type":"segment","conditions":[
          {"type":"field","field":"shoeSize","values":["42"]},
          {"type":"near","latitude":91,"longitude":0,"radiusKm":5},
          {"type":"follows","targetType":"planet","targetId":"x"},
          {"type":"clicked","withinDays":0},
          {"type":"opened"},
          {"type":"magic"}]}"""));
    assertThatThrownBy(() -> CampaignJson.fromJson(json))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> assertThat(e.problems())
                .containsExactly(
                    "replyTo must not contain spaces, line breaks or control characters, got 'not an address'",
                    "audience.conditions[0].field must be one of country, city, timeZone but was 'shoeSize'",
                    "audience.conditions[1].latitude must be within -90.0..90.0 but was 91.0",
                    "audience.conditions[2].targetType must be one of brand, artist, gallery, store,"
                        + " category but was 'planet'",
                    "audience.conditions[3].withinDays must be a whole number within 1..3650 but was 0",
                    "audience.conditions[4].campaignId must be a campaign id (a whole number >= 1)",
                    "audience.conditions[5].type must be one of field, locale, near, follows, opened,"
                        + " notOpened, inTest, notInTest, clicked, openedWithin but was 'magic'"));
  }

  @Test
  void a_patch_changes_only_the_fields_it_names() {
    CampaignDefinition current = Fixtures.definition();
    CampaignDefinition patched =
        CampaignJson.merge(current, Json.MAPPER.readTree("{\"name\":\"Winter\",\"replyTo\":null}"));
    assertThat(patched.name()).isEqualTo("Winter");
    assertThat(patched.replyTo()).isEmpty();
    assertThat(patched.html()).isEqualTo(current.html());
    assertThat(patched.slots()).isEqualTo(current.slots());
  }
}
