package dev.tidings.campaign.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.CampaignDefinition;
import dev.tidings.campaign.CampaignTemplates;
import dev.tidings.campaign.DigestOptions;
import dev.tidings.mail.Address;
import dev.tidings.message.MessageToken;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each block's snippet compiles inside a minimal template, and each block refuses bad values by name. */
class CampaignBlocksTest {
  private static CampaignTemplates.Compiled compiledWith(
      CampaignBlocks.Snippet snippet, int slots) {
    return CampaignTemplates.compile(new CampaignDefinition(
        "blocks",
        new Address("news@shop.example", Optional.empty()),
        Optional.empty(),
        "Hello",
        "<html><body><p>Hello</p>" + snippet.html() + "</body></html>",
        "Hello\n" + snippet.text(),
        new Audience.All(),
        slots,
        4,
        100,
        Optional.empty(),
        Optional.of(DigestOptions.defaults()),
        Optional.empty()));
  }

  @Test
  void every_snippet_compiles_in_a_minimal_template() {
    for (Block block : List.of(
        new Block.Slots(1),
        new Block.Slots(3),
        new Block.Slots(MessageToken.MAX_SLOTS),
        new Block.Digest(),
        new Block.Button("Shop the edit", "https://shop.example/autumn?a=1&b=2"),
        new Block.Unsubscribe())) {
      int slots = block instanceof Block.Slots s ? s.count() : 0;
      var compiled = compiledWith(CampaignBlocks.snippet(block), slots);
      switch (block) {
        case Block.Slots s -> {
          assertThat(compiled.htmlPlacesSlots()).isTrue();
          assertThat(compiled.textPlacesSlots()).isTrue();
        }
        case Block.Digest d -> {
          assertThat(compiled.htmlPlacesNotifications()).isTrue();
          assertThat(compiled.textPlacesNotifications()).isTrue();
        }
        case Block.Unsubscribe u -> {
          assertThat(compiled.htmlLinksUnsubscribe()).isTrue();
          assertThat(compiled.textLinksUnsubscribe()).isTrue();
        }
        case Block.Button b -> assertThat(compiled.htmlLinksUnsubscribe()).isFalse();
      }
    }
  }

  @Test
  void a_buttons_label_and_url_are_escaped() {
    var snippet = CampaignBlocks.snippet(
        new Block.Button("<b>Tom & \"Jerry\"</b>", "https://shop.example/?a=1&b='x'"));
    assertThat(snippet.html())
        .contains("&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;")
        .contains("href=\"https://shop.example/?a=1&amp;b=&#39;x&#39;\"")
        .doesNotContain("<b>Tom");
  }

  @Test
  void a_button_refuses_what_is_not_an_https_url_or_a_plain_label() {
    assertThatThrownBy(() -> new Block.Button("Go", "javascript:alert(1)"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("url");
    assertThatThrownBy(() -> new Block.Button("Go", "http://shop.example/"))
        .hasMessageContaining("url must be an https URL");
    assertThatThrownBy(() -> new Block.Button("Go", "https://shop.example/a\"b"))
        .hasMessageContaining("url");
    assertThatThrownBy(() -> new Block.Button("Go", "https://shop.example/a b"))
        .hasMessageContaining("url");
    assertThatThrownBy(() -> new Block.Button("{{unsubscribeUrl}}", "https://shop.example/"))
        .hasMessageContaining("label");
    assertThatThrownBy(() -> new Block.Button("two\nlines", "https://shop.example/"))
        .hasMessageContaining("label");
    assertThatThrownBy(() -> new Block.Button(" ", "https://shop.example/"))
        .hasMessageContaining("label");
  }

  @Test
  void slots_stay_within_one_and_the_tokens_maximum() {
    assertThatThrownBy(() -> new Block.Slots(0)).hasMessageContaining("count");
    assertThatThrownBy(() -> new Block.Slots(MessageToken.MAX_SLOTS + 1))
        .hasMessageContaining("count");
  }

  @Test
  void blocks_are_read_from_json_naming_the_field_that_is_wrong() {
    assertThat(CampaignBlocks.fromJson(Json.MAPPER.readTree("{\"type\":\"slots\",\"count\":3}")))
        .isEqualTo(new Block.Slots(3));
    assertThat(CampaignBlocks.fromJson(Json.MAPPER.readTree("{\"type\":\"digest\"}")))
        .isEqualTo(new Block.Digest());
    assertThat(CampaignBlocks.fromJson(Json.MAPPER.readTree(
            "{\"type\":\"button\",\"label\":\"Go\",\"url\":\"https://shop.example/\"}")))
        .isEqualTo(new Block.Button("Go", "https://shop.example/"));
    assertThatThrownBy(() -> CampaignBlocks.fromJson(Json.MAPPER.readTree("{\"type\":\"slots\"}")))
        .hasMessageContaining("count");
    assertThatThrownBy(() ->
            CampaignBlocks.fromJson(Json.MAPPER.readTree("{\"type\":\"slots\",\"count\":\"3\"}")))
        .hasMessageContaining("count");
    assertThatThrownBy(() -> CampaignBlocks.fromJson(Json.MAPPER.readTree("{\"type\":\"button\"}")))
        .hasMessageContaining("label")
        .hasMessageContaining("url");
    assertThatThrownBy(() -> CampaignBlocks.fromJson(Json.MAPPER.readTree("{\"type\":\"video\"}")))
        .hasMessageContaining("type must be one of");
    assertThatThrownBy(() -> CampaignBlocks.fromJson(Json.MAPPER.readTree("[]")))
        .isInstanceOf(InvalidInputException.class);
  }
}
