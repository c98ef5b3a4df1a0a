package dev.tidings.delivery.webhook;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The name under which every provider echoes our message id back: the sender puts the {@code
 * X-Tidings-Message-Id} value into the provider's custom arguments (SendGrid {@code custom_args},
 * Mailgun {@code v:} variables, Postmark {@code Metadata}, SES message tags) under this key.
 */
public final class MessageIds {
  public static final String KEY = "tidings_message_id";
  public static final String HEADER = "X-Tidings-Message-Id";
  private static final int MAX_LENGTH = 200;

  private MessageIds() {}

  /** The text of {@code node} when it is a usable message id: a non-blank string of sane length. */
  public static Optional<String> of(JsonNode node) {
    if (!node.isString()) return Optional.empty();
    String text = node.asString().trim();
    return text.isEmpty() || text.length() > MAX_LENGTH ? Optional.empty() : Optional.of(text);
  }
}
