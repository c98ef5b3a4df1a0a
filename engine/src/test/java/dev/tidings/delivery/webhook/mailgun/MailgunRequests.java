package dev.tidings.delivery.webhook.mailgun;

import dev.tidings.Json;
import dev.tidings.delivery.webhook.Fixtures;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Mailgun envelopes: mailgun-php's real signature block, or one signed here with the same key. */
public final class MailgunRequests {
  public static final JsonNode VECTORS = Fixtures.json("mailgun/signature-vectors.json");
  public static final String KEY = VECTORS.path("signing_key").asString();
  public static final JsonNode VALID = VECTORS.path("cases").get(0);
  public static final JsonNode SWAPPED = VECTORS.path("cases").get(1);

  private MailgunRequests() {}

  /** {@code event-data} from {@code eventFile} under the given signature block. */
  public static byte[] envelope(
      JsonNode eventData, String timestamp, String token, String signature) {
    ObjectNode request = Json.MAPPER.createObjectNode();
    ObjectNode block = request.putObject("signature");
    block.put("timestamp", timestamp);
    block.put("token", token);
    block.put("signature", signature);
    request.set("event-data", eventData);
    return Json.MAPPER.writeValueAsBytes(request);
  }

  public static byte[] realSignature(JsonNode eventData) {
    return envelope(
        eventData,
        VALID.path("timestamp").asString(),
        VALID.path("token").asString(),
        VALID.path("signature").asString());
  }

  public static byte[] signed(JsonNode eventData, long timestamp, String token) {
    String time = Long.toString(timestamp);
    return envelope(eventData, time, token, MailgunWebhook.hmacHex(KEY, time + token));
  }

  public static JsonNode event(String file, String messageId) {
    return Fixtures.withMessageId(
        Fixtures.json("mailgun/events/" + file), "user-variables", messageId);
  }
}
