package dev.tidings;

import java.net.IDN;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One mailbox address, {@code local-part@domain}, in the strict form Tidings accepts: the RFC 5321/5322
 * addr-spec with a dot-atom local part of at most 64 characters and a domain of at least two letter-digit-
 * hyphen labels of at most 63 characters each, 253 in all; the whole at most 254. Nothing else a header
 * could read as more than one mailbox is accepted: no display name, angle brackets, comments, quoted local
 * parts, address literals ({@code [127.0.0.1]}), groups or lists. An internationalised domain is turned
 * into its ASCII (punycode) form with {@link IDN}; the normalised value has the domain in lower case and
 * the local part as given. Parsed in one pass over the text, without regular expressions: imports check
 * millions of rows.
 */
public final class EmailAddress {
  public static final int MAX_LENGTH = 254;
  public static final int MAX_LOCAL_PART = 64;
  public static final int MAX_DOMAIN = 253;
  public static final int MAX_LABEL = 63;

  /** The characters RFC 5322 allows in an atom (atext), ASCII only. */
  private static final boolean[] ATEXT = new boolean[0x80];

  static {
    for (char c = 'a'; c <= 'z'; c++) ATEXT[c] = true;
    for (char c = 'A'; c <= 'Z'; c++) ATEXT[c] = true;
    for (char c = '0'; c <= '9'; c++) ATEXT[c] = true;
    for (char c : "!#$%&'*+-/=?^_`{|}~".toCharArray()) ATEXT[c] = true;
  }

  /** Why an address was refused, a small closed set (a metric label). */
  public enum Problem {
    EMPTY,
    TOO_LONG,
    CONTROL_CHARACTER,
    NOT_ONE_ADDRESS,
    LOCAL_PART,
    DOMAIN;

    /** The name as a metric label: lower case. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The outcome of {@link #parse}. */
  public sealed interface Parsed permits Valid, Invalid {}

  public record Valid(EmailAddress address) implements Parsed {}

  /** {@code message} says what is wrong, without repeating the text (the caller may quote it). */
  public record Invalid(Problem problem, String message) implements Parsed {}

  private final String value;
  private final int at;

  private EmailAddress(String value, int at) {
    this.value = value;
    this.at = at;
  }

  /** The address, normalised; throws {@link IllegalArgumentException} saying what is wrong. */
  public static EmailAddress of(String text) {
    return switch (parse(text)) {
      case Valid valid -> valid.address();
      case Invalid invalid -> throw new IllegalArgumentException(invalid.message());
    };
  }

  /** Parses {@code text} as exactly one bare address. */
  public static Parsed parse(String text) {
    Objects.requireNonNull(text, "text");
    int length = text.length();
    if (length == 0) return invalid(Problem.EMPTY, "must not be empty");
    if (length > MAX_LENGTH)
      return invalid(
          Problem.TOO_LONG, "must be at most " + MAX_LENGTH + " characters, got " + length);
    int at = -1;
    boolean asciiDomain = true;
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c <= ' '
          || c == 0x7F
          || Character.isISOControl(c)
          || Character.isWhitespace(c)
          || Character.isSpaceChar(c)) {
        return invalid(
            Problem.CONTROL_CHARACTER,
            "must not contain spaces, line breaks or control characters");
      }
      if (c == '@') {
        if (at >= 0) return invalid(Problem.NOT_ONE_ADDRESS, "must be one address with a single @");
        at = i;
      } else if (c < 0x80 && !ATEXT[c] && c != '.') {
        return invalid(
            Problem.NOT_ONE_ADDRESS,
            "must be a bare address name@domain, without display name, <>, quotes, comments,"
                + " lists or [address literals]; '" + c + "' is not allowed");
      } else if (c >= 0x80) {
        if (at < 0)
          return invalid(
              Problem.LOCAL_PART,
              "must have a local part (before @) of ASCII letters, digits and !#$%&'*+-/=?^_`{|}~.");
        asciiDomain = false;
      }
    }
    if (at < 0) return invalid(Problem.NOT_ONE_ADDRESS, "must be an address name@domain with an @");
    String localProblem = localPartProblem(text, at);
    if (localProblem != null) return invalid(Problem.LOCAL_PART, localProblem);
    String domain = text.substring(at + 1);
    if (!asciiDomain) {
      try {
        domain = IDN.toASCII(domain, IDN.USE_STD3_ASCII_RULES);
      } catch (IllegalArgumentException e) {
        return invalid(Problem.DOMAIN, "must have a valid internationalised domain after @");
      }
    }
    String domainProblem = domainProblem(domain);
    if (domainProblem != null) return invalid(Problem.DOMAIN, domainProblem);
    String lowerDomain = lowerAscii(domain);
    String normalised =
        asciiDomain && lowerDomain.equals(domain) ? text : text.substring(0, at + 1) + lowerDomain;
    if (normalised.length() > MAX_LENGTH)
      return invalid(
          Problem.TOO_LONG,
          "must be at most " + MAX_LENGTH + " characters with its domain in ASCII, got "
              + normalised.length());
    return new Valid(new EmailAddress(normalised, at));
  }

  /**
   * The normalised form of an address that parses, else {@code text} itself: for looking up and
   * keeping addresses that were stored before the rule (a suppression must never be lost).
   */
  public static String normalisedOrAsGiven(String text) {
    return parse(text) instanceof Valid valid ? valid.address().value() : text;
  }

  /** {@code local-part@domain}, the domain in lower-case ASCII. */
  public String value() {
    return value;
  }

  public String localPart() {
    return value.substring(0, at);
  }

  /** The domain in lower-case ASCII (punycode for an internationalised one). */
  public String domain() {
    return value.substring(at + 1);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EmailAddress address && address.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }

  private static Invalid invalid(Problem problem, String message) {
    return new Invalid(problem, message);
  }

  /** Dot-atom: atoms of atext joined by single dots; the characters were checked by the caller. */
  private static @Nullable String localPartProblem(String text, int at) {
    if (at == 0) return "must have a local part before @";
    if (at > MAX_LOCAL_PART)
      return "must have a local part (before @) of at most " + MAX_LOCAL_PART + " characters, got "
          + at;
    if (text.charAt(0) == '.' || text.charAt(at - 1) == '.')
      return "must not start or end the local part (before @) with a dot";
    for (int i = 1; i < at; i++) {
      if (text.charAt(i) == '.' && text.charAt(i - 1) == '.')
        return "must not have two dots in a row in the local part (before @)";
    }
    return null;
  }

  /** Letter-digit-hyphen labels; at least two, the last not all digits (that would be an IP address). */
  private static @Nullable String domainProblem(String domain) {
    if (domain.isEmpty()) return "must have a domain after @";
    if (domain.length() > MAX_DOMAIN)
      return "must have a domain of at most " + MAX_DOMAIN + " characters, got " + domain.length();
    int labels = 0;
    int start = 0;
    boolean lastAllDigits = false;
    while (start <= domain.length()) {
      int end = domain.indexOf('.', start);
      if (end < 0) end = domain.length();
      int labelLength = end - start;
      if (labelLength == 0)
        return "must not have an empty label (two dots, or a dot at an end) in the domain";
      if (labelLength > MAX_LABEL)
        return "must have domain labels of at most " + MAX_LABEL + " characters, got "
            + labelLength;
      if (domain.charAt(start) == '-' || domain.charAt(end - 1) == '-')
        return "must not start or end a domain label with a hyphen";
      boolean allDigits = true;
      for (int i = start; i < end; i++) {
        char c = domain.charAt(i);
        boolean digit = c >= '0' && c <= '9';
        if (!(digit || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'))
          return "must have a domain of letters, digits, hyphens and dots";
        allDigits &= digit;
      }
      lastAllDigits = allDigits;
      labels++;
      start = end + 1;
    }
    if (labels < 2) return "must have a domain with at least one dot, such as example.com";
    if (lastAllDigits) return "must have a domain name, not an IP address";
    return null;
  }

  private static String lowerAscii(String domain) {
    for (int i = 0; i < domain.length(); i++) {
      char c = domain.charAt(i);
      if (c >= 'A' && c <= 'Z') return domain.toLowerCase(Locale.ROOT);
    }
    return domain;
  }
}
