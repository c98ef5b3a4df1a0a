package dev.tidings.opentime.card;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A rendered product card: PNG bytes and a strong ETag (quoted) derived from them, so equal bytes
 * always carry the same tag. The array is shared, not copied on every serve: callers must not modify
 * it.
 */
// equals, hashCode and toString below compare and show the bytes by content, which is what the
// check guards against forgetting.
@SuppressWarnings("ArrayRecordComponent")
public record Card(byte[] png, String etag) {

  public Card {
    if (png.length == 0) throw new IllegalArgumentException("a card needs PNG bytes");
  }

  static Card of(byte[] png) {
    return new Card(png, etagOf(png));
  }

  static String etagOf(byte[] bytes) {
    return '"' + HexFormat.of().formatHex(Arrays.copyOf(sha256(bytes), 16)) + '"';
  }

  static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Card card && etag.equals(card.etag) && Arrays.equals(png, card.png);
  }

  @Override
  public int hashCode() {
    return etag.hashCode();
  }

  @Override
  public String toString() {
    return "Card[" + png.length + " bytes, etag=" + etag + "]";
  }
}
