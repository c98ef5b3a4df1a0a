package dev.tidings.mail.smtp;

import dev.tidings.Json;
import dev.tidings.config.Settings;
import dev.tidings.mail.OutgoingEmail;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.ObjectWriter;

/**
 * The header through which an email provider learns our message id and echoes it back in its
 * webhook events (the delivery webhooks read it under {@value #KEY}): providers keep their own ids
 * and return few of our headers, so the id has to travel in the provider's custom arguments. JSON
 * values are written by Jackson with every character outside printable ASCII escaped, so no value
 * can break the header's line or be re-encoded on the way.
 */
public enum ProviderHeaders {
  NONE,
  /** {@code X-SMTPAPI} unique args, which the Event Webhook copies onto every event. */
  SENDGRID,
  /** {@code X-Mailgun-Variables}, returned as the events' {@code user-variables}. */
  MAILGUN,
  /** One {@code X-PM-Metadata-*} header per field, returned as the events' {@code Metadata}. */
  POSTMARK,
  /** {@code X-SES-MESSAGE-TAGS}, returned as the events' {@code mail.tags}. */
  SES;

  /** The custom argument's name, the same the delivery webhooks look for. */
  static final String KEY = "tidings_message_id";

  public static final String SENDGRID_HEADER = "X-SMTPAPI";
  public static final String MAILGUN_HEADER = "X-Mailgun-Variables";
  public static final String POSTMARK_HEADER = "X-PM-Metadata-" + KEY;
  public static final String SES_HEADER = "X-SES-MESSAGE-TAGS";

  /** Postmark keeps metadata values of up to 80 characters. */
  private static final int POSTMARK_MAX_VALUE = 80;
  /** SES tag values: ASCII letters, digits, '_' and '-', at most 256 characters. */
  private static final Pattern SES_TAG_VALUE = Pattern.compile("[A-Za-z0-9_-]{1,256}");

  private static final Pattern SES_HOST =
      Pattern.compile("email-smtp(-fips)?\\.[a-z0-9-]+\\.amazonaws\\.com");
  private static final ObjectWriter JSON =
      Json.MAPPER.writer().with(JsonWriteFeature.ESCAPE_NON_ASCII);

  /** The provider behind an SMTP host, {@link #NONE} for any other host. */
  public static ProviderHeaders forHost(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    if (name.endsWith(".")) name = name.substring(0, name.length() - 1);
    return switch (name) {
      case "smtp.sendgrid.net" -> SENDGRID;
      case "smtp.mailgun.org", "smtp.eu.mailgun.org" -> MAILGUN;
      case "smtp.postmarkapp.com" -> POSTMARK;
      default -> SES_HOST.matcher(name).matches() ? SES : NONE;
    };
  }

  /** What {@code TIDINGS_SMTP_PROVIDER} chose, {@code AUTO} resolved from {@code host}. */
  public static ProviderHeaders chosen(Settings.SmtpProvider choice, String host) {
    return switch (choice) {
      case AUTO -> forHost(host);
      case NONE -> NONE;
      case SENDGRID -> SENDGRID;
      case MAILGUN -> MAILGUN;
      case POSTMARK -> POSTMARK;
      case SES -> SES;
    };
  }

  /**
   * The headers that carry {@code messageId} to this provider; none when the provider cannot hold
   * it (a Postmark value too long, an SES tag with other characters), in which case its events are
   * correlated by the {@code X-Tidings-Message-Id} header alone where the provider returns it.
   */
  public Map<String, String> headers(String messageId) {
    Map<String, String> headers = new LinkedHashMap<>();
    switch (this) {
      case NONE -> {}
      case SENDGRID ->
        headers.put(SENDGRID_HEADER, json(Map.of("unique_args", Map.of(KEY, messageId))));
      case MAILGUN -> headers.put(MAILGUN_HEADER, json(Map.of(KEY, messageId)));
      case POSTMARK -> {
        if (messageId.length() <= POSTMARK_MAX_VALUE && printableAscii(messageId))
          headers.put(POSTMARK_HEADER, messageId);
      }
      case SES -> {
        if (SES_TAG_VALUE.matcher(messageId).matches())
          headers.put(SES_HEADER, KEY + "=" + messageId);
      }
    }
    return headers;
  }

  /** {@code email} with this provider's headers added to its own. */
  public OutgoingEmail correlated(OutgoingEmail email) {
    Map<String, String> added = headers(email.messageId());
    if (added.isEmpty()) return email;
    Map<String, String> headers = new LinkedHashMap<>(email.headers());
    headers.putAll(added);
    return new OutgoingEmail(
        email.messageId(),
        email.from(),
        email.to(),
        email.subject(),
        email.text(),
        email.html(),
        headers,
        email.replyTo());
  }

  private static String json(Object value) {
    return JSON.writeValueAsString(value);
  }

  private static boolean printableAscii(String text) {
    return text.chars().allMatch(c -> c > ' ' && c < 0x7f);
  }
}
