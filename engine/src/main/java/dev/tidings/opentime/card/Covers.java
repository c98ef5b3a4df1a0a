package dev.tidings.opentime.card;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;

/** Scales a picture to cover an area, keeping its aspect ratio and cropping the overflow evenly. */
final class Covers {
  private Covers() {}

  static BufferedImage crop(BufferedImage source, int width, int height) {
    double scale =
        Math.max((double) width / source.getWidth(), (double) height / source.getHeight());
    var scaled = scale < 1 ? shrink(source, scale) : source;
    int drawnWidth = (int) Math.ceil(source.getWidth() * scale);
    int drawnHeight = (int) Math.ceil(source.getHeight() * scale);
    var result = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = result.createGraphics();
    try {
      // Transparent pictures (PNG, GIF) sit on white, as they would on a shop's page.
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      g.setRenderingHint(
          RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
      g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
      int x = (width - drawnWidth) / 2;
      int y = (height - drawnHeight) / 2;
      g.drawImage(scaled, x, y, drawnWidth, drawnHeight, null);
    } finally {
      g.dispose();
    }
    return result;
  }

  /**
   * Halves the picture step by step until the last step is small: one big bicubic step skips most
   * source pixels and shimmers, as product photos of several thousand pixels would.
   */
  private static BufferedImage shrink(BufferedImage source, double scale) {
    var current = source;
    int targetWidth = Math.max(1, (int) Math.ceil(source.getWidth() * scale));
    int targetHeight = Math.max(1, (int) Math.ceil(source.getHeight() * scale));
    while (current.getWidth() / 2 >= targetWidth && current.getHeight() / 2 >= targetHeight) {
      int w = current.getWidth() / 2;
      int h = current.getHeight() / 2;
      var half = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
      Graphics2D g = half.createGraphics();
      try {
        g.setRenderingHint(
            RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(current, 0, 0, w, h, null);
      } finally {
        g.dispose();
      }
      current = half;
    }
    return current;
  }
}
