package dev.tidings.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignTemplates;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/** The demo's campaigns are campaigns the API would take, templates and all. */
class DemoCampaignFilesTest {
  @ParameterizedTest
  @ValueSource(strings = {"/demo/campaign.json", "/demo/digest.json"})
  void the_demo_campaigns_are_accepted(String resource) throws IOException {
    try (InputStream in = DemoCampaignFilesTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      var json = (ObjectNode) Json.MAPPER.readTree(in);
      assertThat(CampaignTemplates.compileVariants(CampaignJson.fromJson(json))).isNotEmpty();
    }
  }
}
