package dev.tidings.mail;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One finished email. {@code messageId} is Tidings' own id (also sent as {@code X-Tidings-Message-Id},
 * which webhooks correlate on); {@code headers} are extra headers such as {@code List-Unsubscribe}.
 * Construction refuses any header value with a line break, so data can never inject headers. The
 * addresses ({@code from}, {@code to}, {@code replyTo}) are set only here, as {@link Address}es, never as
 * header text: {@link MimeEmails} writes them through the mail library, quoting or encoding each name.
 */
public record OutgoingEmail(
    String messageId,
    Address from,
    Address to,
    String subject,
    String text,
    Optional<String> html,
    Map<String, String> headers,
    Optional<Address> replyTo) {

  public static final String TIDINGS_MESSAGE_ID = "X-Tidings-Message-Id";
  private static final Pattern HEADER_NAME = Pattern.compile("[!-9;-~]{1,76}");
  private static final Set<String> RESERVED = Set.of(
      "from",
      "to",
      "cc",
      "reply-to",
      "sender",
      "bcc",
      "subject",
      "message-id",
      "date",
      "mime-version",
      "content-type",
      "content-transfer-encoding",
      TIDINGS_MESSAGE_ID.toLowerCase(Locale.ROOT));

  public OutgoingEmail {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(html, "html");
    Objects.requireNonNull(replyTo, "replyTo");
    HeaderText.requireSingleLine("messageId", messageId);
    if (messageId.isBlank() || messageId.chars().anyMatch(c -> c <= ' ' || c == '<' || c == '>')) {
      throw new IllegalArgumentException(
          "messageId must be non-empty printable text without spaces or angle brackets");
    }
    HeaderText.requireSingleLine("subject", subject);
    var copy = new LinkedHashMap<String, String>();
    headers.forEach((name, value) -> {
      if (!HEADER_NAME.matcher(name).matches())
        throw new IllegalArgumentException("invalid header name: '" + name + "'");
      if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("header " + name + " is set by Tidings itself");
      }
      copy.put(name, HeaderText.requireSingleLine("header " + name, value));
    });
    headers = Collections.unmodifiableMap(copy);
  }

  /** An email without a Reply-To. */
  public OutgoingEmail(
      String messageId,
      Address from,
      Address to,
      String subject,
      String text,
      Optional<String> html,
      Map<String, String> headers) {
    this(messageId, from, to, subject, text, html, headers, Optional.empty());
  }
}
