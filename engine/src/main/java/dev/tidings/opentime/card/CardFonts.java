package dev.tidings.opentime.card;

import java.awt.Font;
import java.awt.FontFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The card's two faces. DejaVu Sans (Debian's fonts-dejavu-core) when installed, so cards look the
 * same on every server and cover most scripts; otherwise the JDK's logical sans-serif font.
 */
record CardFonts(Font regular, Font bold) {
  private static final Path DEJAVU = Path.of("/usr/share/fonts/truetype/dejavu");

  static CardFonts load() {
    return new CardFonts(
        load("DejaVuSans.ttf", Font.PLAIN), load("DejaVuSans-Bold.ttf", Font.BOLD));
  }

  private static Font load(String file, int fallbackStyle) {
    var path = DEJAVU.resolve(file);
    if (Files.isRegularFile(path)) {
      try {
        return Font.createFont(Font.TRUETYPE_FONT, path.toFile());
      } catch (FontFormatException | IOException e) {
        // Fall through to the logical font: a card with another face beats no card.
      }
    }
    return new Font(Font.SANS_SERIF, fallbackStyle, 12);
  }
}
