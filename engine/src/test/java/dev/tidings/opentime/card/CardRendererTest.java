package dev.tidings.opentime.card;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.FontMetrics;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Optional;
import javax.imageio.ImageIO;
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

  @Test
  void a_sale_draws_the_sale_price_in_red_and_the_regular_price_struck_through_beside_it()
      throws IOException {
    var renderer = new CardRenderer(CardFonts.load());
    var plain = new CardContent(Optional.of("Acme"), "Canvas tote", "$19.00");
    var sale = new CardContent(Optional.of("Acme"), "Canvas tote", "$15.00", Optional.of("$19.00"));

    var plainCard = image(renderer.render(plain, Optional.empty()));
    var saleCard = image(renderer.render(sale, Optional.empty()));

    assertThat(redPixelsInPriceRow(plainCard)).isZero();
    assertThat(redPixelsInPriceRow(saleCard)).isGreaterThan(100);
    assertThat(longestMutedRun(saleCard))
        .as("a strike through the regular price: a horizontal line of the muted colour")
        .isGreaterThan(40);
    assertThat(longestMutedRun(plainCard)).isLessThan(20);
  }

  private static BufferedImage image(byte[] png) throws IOException {
    return ImageIO.read(new ByteArrayInputStream(png));
  }

  /** The price's row: the bottom of the card, where nothing but the price is drawn. */
  private static final int PRICE_TOP = CardRenderer.HEIGHT - 110;

  private static int redPixelsInPriceRow(BufferedImage card) {
    int red = 0;
    for (int y = PRICE_TOP; y < CardRenderer.HEIGHT; y++) {
      for (int x = 0; x < CardRenderer.WIDTH; x++) {
        var color = new Color(card.getRGB(x, y));
        if (color.getRed() > 150 && color.getGreen() < 80 && color.getBlue() < 80) red++;
      }
    }
    return red;
  }

  private static int longestMutedRun(BufferedImage card) {
    int longest = 0;
    for (int y = PRICE_TOP; y < CardRenderer.HEIGHT; y++) {
      int run = 0;
      for (int x = 0; x < CardRenderer.WIDTH; x++) {
        var color = new Color(card.getRGB(x, y));
        boolean muted = Math.abs(color.getRed() - 0x6B) < 24
            && Math.abs(color.getGreen() - 0x72) < 24
            && Math.abs(color.getBlue() - 0x80) < 24;
        run = muted ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
    }
    return longest;
  }
}
