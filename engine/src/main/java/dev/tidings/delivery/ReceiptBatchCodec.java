package dev.tidings.delivery;

import dev.tidings.Json;
import dev.tidings.queue.Codec;
import dev.tidings.queue.UndecodableMessageException;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;

/**
 * The queue's form of a {@link ReceiptBatch}: still JSON (readable in a dead-letter queue), but each
 * receipt a positional array with its time in epoch milliseconds, written and read with the
 * streaming generator and parser. Binding a thousand records per message, each time parsed from
 * ISO-8601 text, cost the end-to-end path more CPU than applying the receipts. A message in the
 * object form (queued by an earlier version) is still read.
 *
 * <pre>{"r":[[messageId, status, epochMillis, source, reason, userAgent, sourceAddress,
 *   providerSaysMachine, eventId, slot], ...],
 *  "u":[{"source", "eventType", "rawEvent", "eventId"?}, ...]}</pre>
 */
public final class ReceiptBatchCodec implements Codec<ReceiptBatch> {
  private static final Codec<ReceiptBatch> OBJECT_FORM = Codec.json(ReceiptBatch.class);

  @Override
  public byte[] encode(ReceiptBatch batch) {
    var out = new ByteArrayOutputStream(64 + 120 * batch.receipts().size());
    try (JsonGenerator json = Json.MAPPER.createGenerator(out)) {
      json.writeStartObject();
      json.writeName("r");
      json.writeStartArray();
      for (Receipt receipt : batch.receipts()) {
        json.writeStartArray();
        json.writeString(receipt.messageId());
        json.writeString(receipt.status().name());
        json.writeNumber(receipt.at().toEpochMilli());
        json.writeString(receipt.source().name());
        writeOptional(json, receipt.reason());
        writeOptional(json, receipt.userAgent());
        writeOptional(json, receipt.sourceAddress());
        json.writeBoolean(receipt.providerSaysMachine());
        writeOptional(json, receipt.eventId());
        if (receipt.slot().isPresent()) json.writeNumber(receipt.slot().get());
        else json.writeNull();
        json.writeEndArray();
      }
      json.writeEndArray();
      json.writeName("u");
      json.writeStartArray();
      for (ReceiptStore.Unknown unknown : batch.unknown()) {
        json.writeStartObject();
        json.writeStringProperty("source", unknown.source().name());
        json.writeStringProperty("eventType", unknown.eventType());
        json.writeStringProperty("rawEvent", unknown.rawEvent());
        if (unknown.eventId().isPresent())
          json.writeStringProperty("eventId", unknown.eventId().get());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (JacksonException e) {
      throw new IllegalArgumentException("cannot encode a receipt batch: " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  @Override
  public ReceiptBatch decode(byte[] body) {
    try (JsonParser json = Json.MAPPER.createParser(body)) {
      if (json.nextToken() != JsonToken.START_OBJECT) throw undecodable("not a JSON object");
      if (json.nextToken() == JsonToken.PROPERTY_NAME && !json.currentName().equals("r"))
        return OBJECT_FORM.decode(body);
      List<Receipt> receipts = new ArrayList<>();
      List<ReceiptStore.Unknown> unknown = new ArrayList<>();
      for (JsonToken token = json.currentToken();
          token == JsonToken.PROPERTY_NAME;
          token = json.nextToken()) {
        String name = json.currentName();
        if (json.nextToken() != JsonToken.START_ARRAY) throw undecodable(name + " is not an array");
        switch (name) {
          case "r" -> {
            while (json.nextToken() == JsonToken.START_ARRAY) receipts.add(receipt(json));
          }
          case "u" -> {
            while (json.nextToken() == JsonToken.START_OBJECT) {
              JsonNode event = json.readValueAsTree();
              unknown.add(new ReceiptStore.Unknown(
                  ReceiptSource.valueOf(event.path("source").asString()),
                  event.path("eventType").asString(),
                  event.path("rawEvent").asString(),
                  event.path("eventId").isString()
                      ? Optional.of(event.path("eventId").asString())
                      : Optional.empty()));
            }
          }
          default -> json.skipChildren();
        }
      }
      return new ReceiptBatch(receipts, unknown);
    } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
      throw new UndecodableMessageException("not a receipt batch: " + e.getMessage(), e);
    }
  }

  private static Receipt receipt(JsonParser json) {
    String messageId = text(json);
    DeliveryStatus status = DeliveryStatus.valueOf(text(json));
    json.nextToken();
    Instant at = Instant.ofEpochMilli(json.getLongValue());
    ReceiptSource source = ReceiptSource.valueOf(text(json));
    Optional<String> reason = optional(json);
    Optional<String> userAgent = optional(json);
    Optional<String> sourceAddress = optional(json);
    boolean machine = json.nextToken() == JsonToken.VALUE_TRUE;
    Optional<String> eventId = optional(json);
    Optional<Integer> slot = json.nextToken() == JsonToken.VALUE_NULL
        ? Optional.empty()
        : Optional.of(json.getIntValue());
    if (json.nextToken() != JsonToken.END_ARRAY)
      throw undecodable("a receipt has more than 10 fields");
    return new Receipt(
        messageId, status, at, source, reason, userAgent, sourceAddress, machine, eventId, slot);
  }

  private static String text(JsonParser json) {
    if (json.nextToken() != JsonToken.VALUE_STRING) throw undecodable("expected a string");
    return json.getString();
  }

  private static Optional<String> optional(JsonParser json) {
    return json.nextToken() == JsonToken.VALUE_NULL
        ? Optional.empty()
        : Optional.of(json.getString());
  }

  private static void writeOptional(JsonGenerator json, Optional<String> value) {
    if (value.isPresent()) json.writeString(value.get());
    else json.writeNull();
  }

  private static IllegalArgumentException undecodable(String why) {
    return new IllegalArgumentException(why);
  }
}
