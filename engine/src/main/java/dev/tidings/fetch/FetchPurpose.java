package dev.tidings.fetch;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * What a fetch is for: names the metric label and decides which answers are acceptable. An image
 * must say it is one and start like one, so a URL that names an HTML page or an API answer fetches
 * nothing a card would draw.
 */
public enum FetchPurpose {
  PRODUCT_IMAGE(
      "product_image",
      "image/png,image/jpeg,image/gif",
      Set.of("image/png", "image/jpeg", "image/gif"),
      true),
  /**
   * A product feed (XML or tab-separated text, perhaps gzip-compressed): its body is judged by the feed
   * import, which tells the format from the content and refuses what is neither.
   */
  PRODUCT_FEED(
      "product_feed",
      "application/xml,application/rss+xml,application/atom+xml,text/xml,text/tab-separated-values,"
          + "text/plain;q=0.9,application/gzip;q=0.8,*/*;q=0.1",
      Set.of(
          "application/xml",
          "application/rss+xml",
          "application/atom+xml",
          "text/xml",
          "text/tab-separated-values",
          "text/plain",
          "text/csv",
          "application/gzip",
          "application/x-gzip",
          "application/octet-stream",
          ""),
      false),
  /**
   * A webhook's delivery: a POST to a shop's endpoint ({@link GuardedFetcher#post}), whose answer is
   * its status alone.
   */
  WEBHOOK("webhook", "*/*", Set.of(), false);

  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  private static final byte[] JPEG = {(byte) 0xff, (byte) 0xd8, (byte) 0xff};
  private static final byte[] GIF87 = {'G', 'I', 'F', '8', '7', 'a'};
  private static final byte[] GIF89 = {'G', 'I', 'F', '8', '9', 'a'};

  private final String label;
  private final String accept;
  private final Set<String> contentTypes;
  private final boolean image;

  FetchPurpose(String label, String accept, Set<String> contentTypes, boolean image) {
    this.label = label;
    this.accept = accept;
    this.contentTypes = contentTypes;
    this.image = image;
  }

  public String label() {
    return label;
  }

  String accept() {
    return accept;
  }

  /** Whether a declared content type ({@code image/png; charset=...} included) is acceptable. */
  boolean acceptsType(String contentType) {
    int semicolon = contentType.indexOf(';');
    String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
        .trim()
        .toLowerCase(Locale.ROOT);
    return contentTypes.contains(type);
  }

  /** Whether the first bytes are those of an acceptable format, whatever the header said. */
  boolean acceptsBody(byte[] body) {
    if (!image) return true;
    return startsWith(body, PNG)
        || startsWith(body, JPEG)
        || startsWith(body, GIF87)
        || startsWith(body, GIF89);
  }

  private static boolean startsWith(byte[] body, byte[] magic) {
    return body.length >= magic.length
        && Arrays.equals(body, 0, magic.length, magic, 0, magic.length);
  }
}
