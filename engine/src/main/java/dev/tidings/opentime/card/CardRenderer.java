package dev.tidings.opentime.card;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.font.TextAttribute;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.imageio.ImageIO;

/**
 * Draws a card: the picture across the top, then brand, title (two lines at most) and price. The
 * canvas is twice the size the email shows it at (300 x 400 CSS pixels), so text stays sharp on
 * high-density screens and still reads when a client shrinks the slot to 150 px.
 */
final class CardRenderer {
  static final int WIDTH = 600;
  static final int HEIGHT = 800;
  static final int PICTURE_HEIGHT = 500;

  private static final int PADDING = 36;
  static final int TEXT_WIDTH = WIDTH - 2 * PADDING;
  private static final Color INK = new Color(0x111827);
  private static final Color MUTED = new Color(0x6B7280);
  /** A sale price: red that keeps the contrast of text on white (WCAG AA). */
  private static final Color SALE = new Color(0xB91C1C);

  private static final Color HAIRLINE = new Color(0xE5E7EB);
  private static final Color PLACEHOLDER = new Color(0xF3F4F6);
  private static final Color PLACEHOLDER_MARK = new Color(0xD1D5DB);
  private static final String ELLIPSIS = "\u2026";

  private final CardFonts fonts;

  CardRenderer(CardFonts fonts) {
    this.fonts = fonts;
  }

  byte[] render(CardContent content, Optional<BufferedImage> picture) {
    return draw(g -> {
      if (picture.isPresent()) g.drawImage(picture.get(), 0, 0, WIDTH, PICTURE_HEIGHT, null);
      else drawPlaceholder(g, content);
      drawText(g, content);
    });
  }

  /** A tile with no product and no words: it fits any shop and any slot. */
  byte[] renderGeneric() {
    return draw(g -> {
      g.setPaint(new GradientPaint(0, 0, PLACEHOLDER, 0, PICTURE_HEIGHT, HAIRLINE));
      g.fillRect(0, 0, WIDTH, PICTURE_HEIGHT);
      g.setColor(PLACEHOLDER);
      int top = PICTURE_HEIGHT + 40;
      g.fillRoundRect(PADDING, top, 140, 18, 9, 9);
      g.fillRoundRect(PADDING, top + 44, TEXT_WIDTH, 24, 12, 12);
      g.fillRoundRect(PADDING, top + 84, TEXT_WIDTH * 2 / 3, 24, 12, 12);
      g.fillRoundRect(PADDING, HEIGHT - 84, 180, 40, 12, 12);
    });
  }

  private interface Painter {
    void paint(Graphics2D g);
  }

  private static byte[] draw(Painter painter) {
    var image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
      g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      painter.paint(g);
      // The hairlines keep a white picture from melting into a white email.
      g.setColor(HAIRLINE);
      g.fillRect(0, PICTURE_HEIGHT, WIDTH, 2);
      g.drawRect(0, 0, WIDTH - 1, HEIGHT - 1);
      g.drawRect(1, 1, WIDTH - 3, HEIGHT - 3);
    } finally {
      g.dispose();
    }
    return png(image);
  }

  private void drawPlaceholder(Graphics2D g, CardContent content) {
    g.setColor(PLACEHOLDER);
    g.fillRect(0, 0, WIDTH, PICTURE_HEIGHT);
    var name = content.brand().orElse(content.title()).strip();
    if (name.isEmpty()) return;
    var initial = new String(Character.toChars(name.codePointAt(0))).toUpperCase(Locale.ROOT);
    g.setFont(fonts.bold().deriveFont(180f));
    g.setColor(PLACEHOLDER_MARK);
    var metrics = g.getFontMetrics();
    int x = (WIDTH - metrics.stringWidth(initial)) / 2;
    int y = (PICTURE_HEIGHT - metrics.getHeight()) / 2 + metrics.getAscent();
    g.drawString(initial, x, y);
  }

  private void drawText(Graphics2D g, CardContent content) {
    int baseline = PICTURE_HEIGHT + 56;
    if (content.brand().isPresent()) {
      g.setFont(
          fonts.bold().deriveFont(Map.of(TextAttribute.SIZE, 21f, TextAttribute.TRACKING, 0.08f)));
      g.setColor(MUTED);
      var brand = content.brand().get().strip().toUpperCase(Locale.ROOT);
      g.drawString(fit(brand, g.getFontMetrics()), PADDING, baseline);
      baseline += 46;
    }
    g.setFont(fonts.regular().deriveFont(29f));
    g.setColor(INK);
    for (var line : wrap(content.title().strip(), g.getFontMetrics(), 2)) {
      g.drawString(line, PADDING, baseline);
      baseline += 38;
    }
    drawPrice(g, content);
  }

  /**
   * The price, bold and large; on sale, the sale price in the sale colour, then the regular price
   * smaller, muted and struck through, both sized together to fit the width.
   */
  private void drawPrice(Graphics2D g, CardContent content) {
    int baseline = HEIGHT - 46;
    if (content.wasPrice().isEmpty()) {
      g.setFont(priceFont(g, content.price()));
      g.drawString(content.price(), PADDING, baseline);
      return;
    }
    String was = content.wasPrice().get();
    for (float size = 46f; ; size -= 2f) {
      Font now = fonts.bold().deriveFont(size);
      Font before = fonts.regular().deriveFont(size * 0.6f);
      int nowWidth = g.getFontMetrics(now).stringWidth(content.price());
      int gap = Math.round(size * 0.4f);
      int beforeWidth = g.getFontMetrics(before).stringWidth(was);
      if (size > 20f && nowWidth + gap + beforeWidth > TEXT_WIDTH) continue;
      g.setFont(now);
      g.setColor(SALE);
      g.drawString(content.price(), PADDING, baseline);
      g.setFont(before);
      g.setColor(MUTED);
      int x = PADDING + nowWidth + gap;
      g.drawString(was, x, baseline);
      // the strike: across the middle of the digits, as thick as the text's stem
      var metrics = g.getFontMetrics(before);
      int strikeY = baseline - metrics.getAscent() / 3;
      g.setStroke(new BasicStroke(Math.max(2f, size / 18f)));
      g.drawLine(x, strikeY, x + beforeWidth, strikeY);
      g.setColor(INK);
      return;
    }
  }

  /** Bold and large; smaller only when a long amount would not fit the width. */
  private Font priceFont(Graphics2D g, String price) {
    for (float size = 46f; ; size -= 2f) {
      var font = fonts.bold().deriveFont(size);
      if (size <= 20f || g.getFontMetrics(font).stringWidth(price) <= TEXT_WIDTH) return font;
    }
  }

  /** Greedy word wrap into at most {@code maxLines}; the last line ends in an ellipsis if cut. */
  static List<String> wrap(String text, FontMetrics metrics, int maxLines) {
    var lines = new ArrayList<String>();
    var words = text.split("\\s+");
    var line = new StringBuilder();
    int index = 0;
    while (index < words.length && lines.size() < maxLines) {
      var word = words[index];
      var candidate = line.isEmpty() ? word : line + " " + word;
      if (metrics.stringWidth(candidate) <= TEXT_WIDTH) {
        line.setLength(0);
        line.append(candidate);
        index++;
      } else if (line.isEmpty()) {
        // One word wider than the card: break it where it stops fitting.
        int cut = widestPrefix(word, metrics);
        lines.add(word.substring(0, cut));
        words[index] = word.substring(cut);
      } else {
        lines.add(line.toString());
        line.setLength(0);
      }
    }
    if (!line.isEmpty() && lines.size() < maxLines) lines.add(line.toString());
    if (index < words.length && !lines.isEmpty()) {
      int last = lines.size() - 1;
      lines.set(last, withEllipsis(lines.get(last), metrics));
    }
    return lines;
  }

  private static String fit(String text, FontMetrics metrics) {
    return metrics.stringWidth(text) <= TEXT_WIDTH ? text : withEllipsis(text, metrics);
  }

  private static String withEllipsis(String text, FontMetrics metrics) {
    var shortened = text.strip();
    while (!shortened.isEmpty() && metrics.stringWidth(shortened + ELLIPSIS) > TEXT_WIDTH)
      shortened = shortened
          .substring(0, shortened.offsetByCodePoints(shortened.length(), -1))
          .strip();
    return shortened + ELLIPSIS;
  }

  private static int widestPrefix(String word, FontMetrics metrics) {
    int end = word.offsetByCodePoints(0, 1);
    while (end < word.length()) {
      int next = word.offsetByCodePoints(end, 1);
      if (metrics.stringWidth(word.substring(0, next)) > TEXT_WIDTH) break;
      end = next;
    }
    return end;
  }

  private static byte[] png(BufferedImage image) {
    var out = new ByteArrayOutputStream(64 * 1024);
    try {
      ImageIO.write(image, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a PNG to memory failed", e);
    }
    return out.toByteArray();
  }
}
