package dev.tidings.sample;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Placeholder product pictures for the sample shop: a soft background in a colour taken from the id,
 * a simple shape, and the product's initials. Same id and size, same picture.
 */
public final class SampleImages {
  static {
    // A server has no display; Java2D must never try to open one.
    if (System.getProperty("java.awt.headless") == null)
      System.setProperty("java.awt.headless", "true");
  }

  private static final int MAX_SIDE = 2048;

  private SampleImages() {}

  /** A PNG of {@code width} x {@code height} pixels for the product, labelled with initials of its id. */
  public static byte[] png(String productId, int width, int height) {
    return png(productId, productId, width, height);
  }

  /** As {@link #png(String, int, int)}, with initials taken from {@code label} (e.g. the title). */
  public static byte[] png(String productId, String label, int width, int height) {
    if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
      throw new IllegalArgumentException(
          "image size must be 1.." + MAX_SIDE + " per side, was " + width + "x" + height);
    }
    int hash = Rng.hash(productId.getBytes(StandardCharsets.UTF_8));
    float hue = (hash >>> 8 & 0xffff) / 65536f;
    var image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setPaint(new GradientPaint(
          0,
          0,
          Color.getHSBColor(hue, 0.18f, 0.98f),
          width,
          height,
          Color.getHSBColor(hue, 0.32f, 0.90f)));
      g.fillRect(0, 0, width, height);

      float side = Math.min(width, height) * 0.56f;
      float x = (width - side) / 2f;
      float y = (height - side) / 2f;
      g.setColor(Color.getHSBColor(hue, 0.45f, 0.78f));
      g.fill(
          switch (Math.floorMod(hash, 4)) {
            case 0 -> new Ellipse2D.Float(x, y, side, side);
            case 1 -> new RoundRectangle2D.Float(x, y, side, side, side / 4, side / 4);
            case 2 -> diamond(x, y, side);
            default ->
              new RoundRectangle2D.Float(x, y + side / 4, side, side / 2, side / 2, side / 2);
          });
      g.setColor(Color.getHSBColor(hue, 0.55f, 0.55f));
      g.setStroke(new BasicStroke(Math.max(1f, side / 40f)));
      g.draw(new RoundRectangle2D.Float(2, 2, width - 4f, height - 4f, 12, 12));
      drawInitials(g, initials(label), width, height, side);
    } finally {
      g.dispose();
    }
    var png = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", png);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return png.toByteArray();
  }

  private static void drawInitials(
      Graphics2D g, String initials, int width, int height, float side) {
    if (initials.isEmpty()) return;
    try {
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, Math.max(6, Math.round(side * 0.38f))));
      var metrics = g.getFontMetrics();
      g.setColor(Color.WHITE);
      g.drawString(
          initials,
          (width - metrics.stringWidth(initials)) / 2f,
          (height - metrics.getHeight()) / 2f + metrics.getAscent());
    } catch (RuntimeException | InternalError e) {
      // A machine without any font still gets its picture, only without letters.
    }
  }

  /** First letters of the first two words ("Relaxed Linen Shirt" -> "RL"); for ids, "p-123" -> "P1". */
  static String initials(String label) {
    var letters = new StringBuilder(2);
    boolean wordStart = true;
    for (int i = 0; i < label.length() && letters.length() < 2; i++) {
      char c = label.charAt(i);
      if (Character.isLetterOrDigit(c)) {
        if (wordStart) letters.append(c);
        wordStart = false;
      } else {
        wordStart = true;
      }
    }
    return letters.toString().toUpperCase(Locale.ROOT);
  }

  private static Path2D diamond(float x, float y, float side) {
    var path = new Path2D.Float();
    path.moveTo(x + side / 2, y);
    path.lineTo(x + side, y + side / 2);
    path.lineTo(x + side / 2, y + side);
    path.lineTo(x, y + side / 2);
    path.closePath();
    return path;
  }
}
