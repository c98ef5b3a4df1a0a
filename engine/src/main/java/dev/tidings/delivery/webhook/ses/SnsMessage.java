package dev.tidings.delivery.webhook.ses;

import static dev.tidings.delivery.webhook.WebhookJson.text;

import dev.tidings.delivery.webhook.WebhookRefused;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One SNS HTTP message, the fields its signature covers with the decoded values. SNS delivering to
 * Lambda spells two keys {@code SigningCertUrl} and {@code SubscribeUrl}; both spellings are read.
 */
public record SnsMessage(
    String type,
    String messageId,
    String topicArn,
    String message,
    String timestamp,
    Optional<String> subject,
    Optional<String> subscribeUrl,
    Optional<String> token,
    String signatureVersion,
    String signature,
    String signingCertUrl) {

  public static final String NOTIFICATION = "Notification";
  public static final String SUBSCRIPTION_CONFIRMATION = "SubscriptionConfirmation";
  public static final String UNSUBSCRIBE_CONFIRMATION = "UnsubscribeConfirmation";

  public static SnsMessage of(JsonNode node) {
    if (!node.isObject()) throw WebhookRefused.malformed("expected an SNS message (a JSON object)");
    var problems = new ArrayList<String>();
    String type = required(node, "Type", problems);
    boolean confirmation =
        type.equals(SUBSCRIPTION_CONFIRMATION) || type.equals(UNSUBSCRIBE_CONFIRMATION);
    // an empty Type is present but names no type: it would be signed as a confirmation without one
    if (node.path("Type").isString() && !confirmation && !type.equals(NOTIFICATION))
      problems.add("Type '" + type + "' is not an SNS message type");
    var message = new SnsMessage(
        type,
        required(node, "MessageId", problems),
        required(node, "TopicArn", problems),
        required(node, "Message", problems),
        required(node, "Timestamp", problems),
        text(node, "Subject"),
        text(node, "SubscribeURL").or(() -> text(node, "SubscribeUrl")),
        text(node, "Token"),
        required(node, "SignatureVersion", problems),
        required(node, "Signature", problems),
        text(node, "SigningCertURL").or(() -> text(node, "SigningCertUrl")).orElse(""));
    if (confirmation && message.subscribeUrl.isEmpty()) problems.add("SubscribeURL is missing");
    if (confirmation && message.token.isEmpty()) problems.add("Token is missing");
    if (!problems.isEmpty())
      throw WebhookRefused.malformed("not an SNS message: " + String.join("; ", problems));
    if (message.signingCertUrl.isEmpty())
      throw WebhookRefused.unauthenticated(
          "SigningCertURL is missing: the message cannot be verified");
    return message;
  }

  /**
   * What SNS signs: {@code name\nvalue\n} for each covered field in SNS's fixed order; a notification
   * covers Subject only when it has one.
   */
  public String stringToSign() {
    var fields = new ArrayList<String[]>();
    fields.add(new String[] {"Message", message});
    fields.add(new String[] {"MessageId", messageId});
    if (type.equals(NOTIFICATION)) {
      subject.ifPresent(value -> fields.add(new String[] {"Subject", value}));
      fields.add(new String[] {"Timestamp", timestamp});
    } else {
      fields.add(new String[] {"SubscribeURL", subscribeUrl.orElseThrow()});
      fields.add(new String[] {"Timestamp", timestamp});
      fields.add(new String[] {"Token", token.orElseThrow()});
    }
    fields.add(new String[] {"TopicArn", topicArn});
    fields.add(new String[] {"Type", type});
    var text = new StringBuilder();
    for (String[] field : fields)
      text.append(field[0]).append('\n').append(field[1]).append('\n');
    return text.toString();
  }

  private static String required(JsonNode node, String field, List<String> problems) {
    JsonNode value = node.path(field);
    if (!value.isString()) {
      problems.add(field + " is missing");
      return "";
    }
    return value.asString();
  }
}
