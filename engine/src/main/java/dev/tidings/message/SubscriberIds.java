package dev.tidings.message;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.tidings.Problems;

/**
 * Subscriber ids inside tokens. Ids that are plain decimal numbers (most shops' customer numbers) are
 * written as a varint, the rest as their ASCII characters, so that a token stays short.
 */
final class SubscriberIds {
  private static final int MAX_LENGTH = 64;
  private static final int NUMBER = 0;
  private static final int TEXT = 1;

  private SubscriberIds() {}

  static boolean valid(String id) {
    return Problems.isId(id);
  }

  static void write(String id, TokenBytes.Writer out) {
    if (isCanonicalNumber(id)) {
      out.varint(NUMBER);
      out.varint(Long.parseLong(id));
    } else {
      out.varint(TEXT);
      byte[] ascii = id.getBytes(US_ASCII);
      out.varint(ascii.length);
      out.bytes(ascii);
    }
  }

  static String read(TokenBytes.Reader in) {
    long form = in.varint();
    if (form == NUMBER) return Long.toString(in.varint());
    if (form != TEXT) throw new IllegalArgumentException("unknown subscriber id form " + form);
    long length = in.varint();
    if (length < 1 || length > MAX_LENGTH)
      throw new IllegalArgumentException("subscriber id length " + length);
    String id = new String(in.bytes((int) length), US_ASCII);
    if (!valid(id) || isCanonicalNumber(id))
      throw new IllegalArgumentException("not a subscriber id in its canonical form");
    return id;
  }

  /** Digits without a leading zero that fit a long: the only ids written as numbers. */
  private static boolean isCanonicalNumber(String id) {
    if (id.length() > 18 || (id.length() > 1 && id.charAt(0) == '0')) return false;
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < '0' || c > '9') return false;
    }
    return true;
  }
}
