package dev.tidings.campaign;

import static dev.tidings.fuzz.Refusals.allowOnly;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.InvalidInputException;
import dev.tidings.fuzz.Inputs;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an API client sends as a campaign: its templates (compiled and checked), its segment definition
 * (the audience conditions) and the whole JSON body. A definition is taken or refused with
 * InvalidInputException.
 */
class CampaignParsersFuzzTest {
  /** Separates subject, html and text in one fuzz input (ASCII record separator). */
  private static final String PARTS = "\u001e";

  @FuzzTest
  void templates(byte[] data) {
    String[] parts = Inputs.text(data).split(PARTS, 3);
    ObjectNode json = Fixtures.json();
    json.put("subject", parts[0]);
    if (parts.length > 1) json.put("html", parts[1]);
    if (parts.length > 2) json.put("text", parts[2]);
    allowOnly(
        () -> CampaignTemplates.compileVariants(CampaignJson.fromJson(json)),
        InvalidInputException.class);
  }

  @FuzzTest
  void segment_definition(byte[] data) {
    Inputs.json(data).ifPresent(audience -> {
      ObjectNode json = Fixtures.json();
      json.set("audience", audience);
      allowOnly(() -> CampaignJson.fromJson(json), InvalidInputException.class);
    });
  }

  @FuzzTest
  void campaign_json(byte[] data) {
    Inputs.json(data)
        .ifPresent(node -> allowOnly(
            () -> {
              CampaignTemplates.compileVariants(CampaignJson.fromJson(node));
            },
            InvalidInputException.class));
  }

  /** PATCH /api/v1/campaigns/{id}: a patch merged into a valid definition. */
  @FuzzTest
  void campaign_patch(byte[] data) {
    Inputs.json(data)
        .ifPresent(patch -> allowOnly(
            () -> CampaignJson.merge(Fixtures.definition(), patch), InvalidInputException.class));
  }
}
