package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** A campaign's {@code sendTime}: read with its defaults, written back, each problem named. */
class SendTimeJsonTest {
  private static ObjectNode with(String sendTime) {
    ObjectNode json = Fixtures.json();
    json.set("sendTime", Json.MAPPER.readTree(sendTime));
    return json;
  }

  private static String problem(String sendTime) {
    try {
      CampaignJson.fromJson(with(sendTime));
    } catch (InvalidInputException e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted " + sendTime);
  }

  @Test
  void absent_is_at_once_and_writes_nothing_back() {
    CampaignDefinition definition = CampaignJson.fromJson(Fixtures.json());
    assertThat(definition.sendTime()).isEqualTo(SendTime.AT_ONCE);
    assertThat(CampaignJson.toJson(definition).has("sendTime")).isFalse();
  }

  @Test
  void per_subscriber_reads_with_its_defaults_and_round_trips() {
    CampaignDefinition definition = CampaignJson.fromJson(with("{\"mode\":\"per-subscriber\"}"));
    assertThat(definition.sendTime())
        .isEqualTo(new SendTime(SendTime.Mode.PER_SUBSCRIBER, Duration.ofHours(24), 0.1));
    CampaignDefinition given = CampaignJson.fromJson(
        with("{\"mode\":\"per-subscriber\",\"within\":\"P7D\",\"holdout\":0.5}"));
    assertThat(given.sendTime().within()).isEqualTo(Duration.ofDays(7));
    assertThat(given.sendTime().holdout()).isEqualTo(0.5);
    assertThat(CampaignJson.fromJson(CampaignJson.toJson(given))).isEqualTo(given);
    assertThat(CampaignJson.fromJson(
                with("{\"mode\":\"per-subscriber\",\"within\":\"PT1H\",\"holdout\":0}"))
            .sendTime()
            .within())
        .isEqualTo(Duration.ofHours(1));
  }

  @Test
  void a_patch_turns_it_on_and_null_turns_it_off() {
    CampaignDefinition plain = CampaignJson.fromJson(Fixtures.json());
    CampaignDefinition timed = CampaignJson.merge(
        plain, Json.MAPPER.readTree("{\"sendTime\":{\"mode\":\"per-subscriber\"}}"));
    assertThat(timed.sendTime().perSubscriber()).isTrue();
    assertThat(CampaignJson.merge(timed, Json.MAPPER.readTree("{\"sendTime\":null}")))
        .isEqualTo(plain);
  }

  @Test
  void each_bad_part_is_named() {
    assertThat(problem("\"soon\"")).contains("sendTime must be an object");
    assertThat(problem("{\"within\":\"PT2H\"}")).contains("sendTime.missing required field 'mode'");
    assertThat(problem("{\"mode\":\"later\"}"))
        .contains("sendTime.mode must be one of at-once, per-subscriber");
    assertThat(problem("{\"mode\":\"per-subscriber\",\"within\":\"PT59M\"}"))
        .contains("sendTime.within must be an ISO-8601 duration from PT1H to P7D");
    assertThat(problem("{\"mode\":\"per-subscriber\",\"within\":\"P8D\"}"))
        .contains("sendTime.within");
    assertThat(problem("{\"mode\":\"per-subscriber\",\"within\":\"tomorrow\"}"))
        .contains("sendTime.within");
    assertThat(problem("{\"mode\":\"per-subscriber\",\"within\":24}")).contains("sendTime.within");
    assertThat(problem("{\"mode\":\"per-subscriber\",\"holdout\":0.6}"))
        .contains("sendTime.holdout must be a number from 0 to 0.5");
    assertThat(problem("{\"mode\":\"per-subscriber\",\"holdout\":-0.1}"))
        .contains("sendTime.holdout");
    assertThat(problem("{\"mode\":\"per-subscriber\",\"holdout\":\"all\"}"))
        .contains("sendTime.holdout");
    assertThat(problem("{\"mode\":\"per-subscriber\",\"at\":\"9\"}"))
        .contains("sendTime.unknown field 'at'");
  }

  @Test
  void the_record_refuses_what_the_json_refuses() {
    assertThatThrownBy(() -> new SendTime(SendTime.Mode.PER_SUBSCRIBER, Duration.ofMinutes(59), 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SendTime(SendTime.Mode.PER_SUBSCRIBER, Duration.ofHours(1), 0.51))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
