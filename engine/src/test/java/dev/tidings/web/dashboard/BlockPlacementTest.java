package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Where the editor puts a block it adds: before the end of the body, whatever letters come first. */
class BlockPlacementTest {
  @Test
  void a_letter_whose_lower_case_is_longer_does_not_move_the_block() {
    // İ (U+0130) lower-cases to two chars: an index found in a lower-cased copy lands too far
    String html = "<html><body><p>İstanbul İİİ</p></body></html>";

    assertThat(CampaignEditor.insertBeforeBodyEnd(html, "[BLOCK]"))
        .isEqualTo("<html><body><p>İstanbul İİİ</p>[BLOCK]\n</body></html>");
  }

  @Test
  void the_end_tag_is_found_in_any_case() {
    assertThat(CampaignEditor.insertBeforeBodyEnd("<BODY><p>İ</p></BoDy></HTML>", "<hr>"))
        .isEqualTo("<BODY><p>İ</p><hr>\n</BoDy></HTML>");
    assertThat(CampaignEditor.insertBeforeBodyEnd("<p>İ</p></body", "<hr>"))
        .as("a tag cut short is no end tag")
        .isEqualTo("<p>İ</p></body\n<hr>");
  }

  @Test
  void a_fragment_without_a_body_gets_the_block_at_its_end() {
    assertThat(CampaignEditor.insertBeforeBodyEnd("<p>İİ</p>", "<hr>"))
        .isEqualTo("<p>İİ</p>\n<hr>");
    assertThat(CampaignEditor.insertBeforeBodyEnd("", "<hr>")).isEqualTo("<hr>");
  }
}
