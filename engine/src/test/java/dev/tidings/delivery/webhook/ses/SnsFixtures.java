package dev.tidings.delivery.webhook.ses;

import dev.tidings.Json;
import dev.tidings.delivery.webhook.Fixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** AWS's real SNS vectors, and SNS messages signed with a key made for the test (for SES events). */
public final class SnsFixtures {
  public static final String SNS = "amazon-ses-sns/sns/";
  public static final String CERT_URL =
      "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-test.pem";
  public static final String TOPIC = "arn:aws:sns:eu-west-1:123456789012:tidings-ses-events";
  private static final KeyPair KEYS = generate();

  private SnsFixtures() {}

  public record Vector(String messageFile, String certFile, String stringToSignFile) {}

  public static List<Vector> vectors() {
    var vectors = new ArrayList<Vector>();
    for (JsonNode vector : Fixtures.json(SNS + "vectors.json"))
      vectors.add(new Vector(
          vector.path("message_file").asString(),
          vector.path("cert_file").asString(),
          vector.path("string_to_sign_file").asString()));
    return vectors;
  }

  /** The real signing certificate as a file, as an operator on a closed network configures it. */
  public static Path certificateFile(String certFile) {
    try {
      Path file = Files.createTempFile("sns-cert", ".pem");
      Files.write(file, Fixtures.bytes(SNS + certFile));
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static SigningKeys testKeys() {
    return url -> List.of(KEYS.getPublic());
  }

  /** An SNS Notification carrying {@code sesEvent}, signed (version 2) with the test key. */
  public static byte[] notification(JsonNode sesEvent, String topic, Instant timestamp) {
    ObjectNode message = Json.MAPPER.createObjectNode();
    message.put("Type", "Notification");
    message.put("MessageId", "sns-" + sesEvent.path("eventType").asString() + "-" + timestamp);
    message.put("TopicArn", topic);
    message.put("Subject", "Amazon SES Email Event Notification");
    message.put("Message", Json.MAPPER.writeValueAsString(sesEvent));
    message.put("Timestamp", timestamp.toString());
    message.put("SignatureVersion", "2");
    message.put("SigningCertURL", CERT_URL);
    return sign(message);
  }

  public static byte[] sign(ObjectNode message) {
    message.put("Signature", "");
    var parsed = SnsMessage.of(message);
    try {
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(KEYS.getPrivate());
      signer.update(parsed.stringToSign().getBytes(StandardCharsets.UTF_8));
      message.put("Signature", Base64.getEncoder().encodeToString(signer.sign()));
      return Json.MAPPER.writeValueAsBytes(message);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * An SES event from the docs carrying our message id: among the original headers SES echoes when
   * the event has them, else as the message tag.
   */
  public static ObjectNode sesEvent(String eventFile, String messageId) {
    ObjectNode event =
        (ObjectNode) Fixtures.json("amazon-ses-sns/ses-events/" + eventFile).deepCopy();
    ObjectNode mail = (ObjectNode) event.path("mail");
    if (mail.path("headers").isArray()) {
      var header = ((ArrayNode) mail.path("headers")).addObject();
      header.put("name", "X-Tidings-Message-Id");
      header.put("value", messageId);
    } else {
      ObjectNode tags = mail.has("tags") ? (ObjectNode) mail.get("tags") : mail.putObject("tags");
      tags.putArray("tidings_message_id").add(messageId);
    }
    return event;
  }

  private static KeyPair generate() {
    try {
      var generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
