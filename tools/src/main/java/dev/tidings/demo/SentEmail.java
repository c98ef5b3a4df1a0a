package dev.tidings.demo;

import jakarta.mail.internet.MimeUtility;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One email as the outbox wrote it, reduced to what a reader's client uses: the message id that
 * receipts name, the signed token of its {@code /p}, {@code /o}, {@code /c} and {@code /u} URLs, how
 * many product slots it has, and its subject (what a reader decides to open by).
 */
public record SentEmail(String messageId, String token, int slots, String subject) {
  private static final Pattern MESSAGE_ID =
      Pattern.compile("^X-Tidings-Message-Id:\\s*(\\S+)", Pattern.MULTILINE);
  private static final Pattern UNSUBSCRIBE = Pattern.compile("/u/([A-Za-z0-9_-]+)");
  private static final Pattern SLOT_LINK = Pattern.compile("/c/([A-Za-z0-9_-]+)/(\\d+)");
  private static final Pattern SUBJECT =
      Pattern.compile("^Subject:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)", Pattern.MULTILINE);

  /** Reads an {@code .eml}; empty when it is not one of ours (no message id or token). */
  public static Optional<SentEmail> parse(String eml) {
    // quoted-printable soft breaks and '=' would split the URLs of the HTML part; the text part
    // carries them whole, and undoing both makes either readable
    String text = eml.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=");
    Matcher id = MESSAGE_ID.matcher(text);
    Matcher unsubscribe = UNSUBSCRIBE.matcher(text);
    if (!id.find() || !unsubscribe.find()) return Optional.empty();
    String token = unsubscribe.group(1);
    var slots = new TreeSet<Integer>();
    Matcher link = SLOT_LINK.matcher(text);
    while (link.find()) if (link.group(1).equals(token)) slots.add(Integer.parseInt(link.group(2)));
    return Optional.of(new SentEmail(id.group(1).trim(), token, slots.size(), subject(eml)));
  }

  /** The subject header, unfolded and with its encoded words decoded. */
  private static String subject(String eml) {
    int headersEnd = eml.indexOf("\r\n\r\n");
    Matcher subject = SUBJECT.matcher(headersEnd < 0 ? eml : eml.substring(0, headersEnd));
    if (!subject.find()) return "";
    String folded = subject.group(1).replaceAll("\\r?\\n[ \\t]+", " ").strip();
    try {
      return MimeUtility.decodeText(folded);
    } catch (UnsupportedEncodingException e) {
      return folded;
    }
  }

  /** Every email under the outbox directory (the sender writes one folder per day), by file name. */
  public static List<SentEmail> readOutbox(Path outbox) {
    if (!Files.isDirectory(outbox)) return List.of();
    try (Stream<Path> files = Files.walk(outbox)) {
      List<SentEmail> emails = new ArrayList<>();
      for (Path file : files.filter(f -> f.toString().endsWith(".eml")).sorted().toList())
        parse(Files.readString(file, StandardCharsets.UTF_8)).ifPresent(emails::add);
      return emails;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the outbox " + outbox, e);
    }
  }
}
