package dev.tidings;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;
import java.util.Optional;

/**
 * An absolute http(s) URL that may go into an email: a product's image or landing page. Checked by a
 * single pass over the text instead of {@link URI}'s parser, which cost a sixth of a product import's
 * time; the rules are stricter than a URI's (no user info, no spaces or control characters, at most
 * 2048 characters), so anything accepted here also parses as a {@link URI} with a host: the click
 * route redirects to it and the fetcher fetches it with that parser. The rare URL the single pass
 * cannot settle (a bracketed IPv6 host, a character beyond ASCII) is parsed by {@link URI} as well.
 */
public record WebUrl(String value) {
  public static final int MAX_LENGTH = 2048;
  private static final boolean[] FORBIDDEN_ASCII = new boolean[0x80];

  static {
    for (int c = 0; c <= ' '; c++) FORBIDDEN_ASCII[c] = true;
    FORBIDDEN_ASCII[0x7F] = true;
    for (char c : "\"<>\\^`{|}[]".toCharArray()) FORBIDDEN_ASCII[c] = true;
  }

  public WebUrl {
    Objects.requireNonNull(value, "value");
    problem(value).ifPresent(problem -> {
      throw new IllegalArgumentException(problem);
    });
  }

  public static WebUrl of(String value) {
    return new WebUrl(value);
  }

  /** Empty when {@code text} is an acceptable URL, else what is wrong with it. */
  public static Optional<String> problem(String text) {
    if (text.length() > MAX_LENGTH)
      return Optional.of("must be at most " + MAX_LENGTH + " characters, got " + text.length());
    int authority = authorityStart(text);
    if (authority < 0) return Optional.of("must be an absolute http(s) URL");
    int end = authority;
    while (end < text.length() && "/?#".indexOf(text.charAt(end)) < 0) end++;
    if (!validAuthority(text, authority, end))
      return Optional.of("must be an absolute http(s) URL with a host name");
    boolean unusual = text.charAt(authority) == '[';
    boolean fragment = false;
    for (int i = end; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= 0x80) unusual = true;
      if (c == '#') {
        if (fragment) return Optional.of("must not contain a second #");
        fragment = true;
      }
      // URI takes any character beyond ASCII but Unicode's spaces and controls (U+00A0 among them)
      if (c < 0x80
          ? FORBIDDEN_ASCII[c]
          : Character.isSpaceChar(c) || Character.isWhitespace(c) || Character.isISOControl(c)) {
        return Optional.of(
            "must not contain spaces, control characters or any of \" < > \\ ^ ` { | } [ ] after the host");
      }
      if (c == '%'
          && !(i + 2 < text.length() && hex(text.charAt(i + 1)) && hex(text.charAt(i + 2)))) {
        return Optional.of("has a % that is not followed by two hex digits");
      }
    }
    if (unusual) {
      try {
        if (new URI(text).getHost() == null)
          return Optional.of("must be an absolute http(s) URL with a host name");
      } catch (URISyntaxException e) {
        return Optional.of("is not a URL: " + e.getReason());
      }
    }
    return Optional.empty();
  }

  public URI toUri() {
    return URI.create(value);
  }

  @Override
  public String toString() {
    return value;
  }

  private static int authorityStart(String text) {
    if (text.regionMatches(true, 0, "https://", 0, 8)) return 8;
    if (text.regionMatches(true, 0, "http://", 0, 7)) return 7;
    return -1;
  }

  /** host, or host:port; a host is a DNS name, an IPv4 address or a bracketed IPv6 address. */
  private static boolean validAuthority(String text, int start, int end) {
    int hostEnd = end;
    if (start < end && text.charAt(start) == '[') {
      int close = text.indexOf(']', start);
      if (close < 0 || close >= end) return false;
      for (int i = start + 1; i < close; i++) {
        char c = text.charAt(i);
        if (!(hex(c) || c == ':' || c == '.')) return false;
      }
      hostEnd = close + 1;
      if (close == start + 1) return false;
    } else {
      int colon = text.lastIndexOf(':', end - 1);
      if (colon >= start) hostEnd = colon;
      if (hostEnd == start) return false;
      for (int i = start; i < hostEnd; i++) {
        char c = text.charAt(i);
        boolean ok = (c >= 'a' && c <= 'z')
            || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9')
            || c == '-'
            || c == '.';
        if (!ok) return false;
      }
      if (!hostName(text, start, hostEnd)) return false;
    }
    if (hostEnd == end) return true;
    if (text.charAt(hostEnd) != ':' || hostEnd + 1 == end || end - hostEnd - 1 > 5) return false;
    int port = 0;
    for (int i = hostEnd + 1; i < end; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') return false;
      port = port * 10 + (c - '0');
    }
    return port >= 1 && port <= 65535;
  }

  /**
   * A name as {@link URI} reads one: dot-separated labels of letters, digits and inner hyphens, the
   * last starting with a letter (else it must be a dotted IPv4 address), one trailing dot allowed.
   * {@code 1.2.3} or {@code a..b} would parse as a URI with no host, which nothing can fetch.
   */
  private static boolean hostName(String text, int start, int end) {
    if (end > start + 1 && text.charAt(end - 1) == '.') end--;
    int labels = 0;
    int lastLabel = start;
    int labelStart = start;
    for (int i = start; i <= end; i++) {
      if (i < end && text.charAt(i) != '.') continue;
      if (i == labelStart || text.charAt(labelStart) == '-' || text.charAt(i - 1) == '-')
        return false;
      labels++;
      lastLabel = labelStart;
      labelStart = i + 1;
    }
    if (labels == 1) return true;
    char first = text.charAt(lastLabel);
    return (first >= 'a' && first <= 'z')
        || (first >= 'A' && first <= 'Z')
        || ipv4(text, start, end);
  }

  private static boolean ipv4(String text, int start, int end) {
    int octets = 0;
    int value = -1;
    for (int i = start; i <= end; i++) {
      char c = i < end ? text.charAt(i) : '.';
      if (c == '.') {
        if (value < 0 || value > 255) return false;
        octets++;
        value = -1;
      } else if (c >= '0' && c <= '9') {
        value = value < 0 ? c - '0' : value * 10 + (c - '0');
        if (value > 255) return false;
      } else return false;
    }
    return octets == 4;
  }

  private static boolean hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
