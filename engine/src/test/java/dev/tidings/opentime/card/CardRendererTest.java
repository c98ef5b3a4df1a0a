package dev.tidings.opentime.card;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.FontMetrics;
import java.awt.image.BufferedImage;
import org.junit.jupiter.api.Test;

class CardRendererTest {
  private final FontMetrics metrics = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB)
      .createGraphics()
      .getFontMetrics(CardFonts.load().regular().deriveFont(29f));

  @Test
  void a_short_title_stays_on_one_line() {
    assertThat(CardRenderer.wrap("Canvas tote", metrics, 2)).containsExactly("Canvas tote");
  }

  @Test
  void a_long_title_is_cut_to_two_lines_ending_in_an_ellipsis() {
    var title =
        "Merino wool crew-neck sweater with ribbed cuffs, a relaxed fit and a very long name";

    var lines = CardRenderer.wrap(title, metrics, 2);

    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).endsWith("\u2026");
    assertThat(title).startsWith(lines.get(0));
    for (var line : lines)
      assertThat(metrics.stringWidth(line)).isLessThanOrEqualTo(CardRenderer.TEXT_WIDTH);
  }

  @Test
  void a_word_wider_than_the_card_is_broken() {
    var word = "X".repeat(80);

    var lines = CardRenderer.wrap(word, metrics, 2);

    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).matches("X+");
    assertThat(lines.get(1)).endsWith("\u2026");
  }
}
