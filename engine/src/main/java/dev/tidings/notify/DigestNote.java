package dev.tidings.notify;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What marking a digest told needs, as text another capability can keep for it: whose it is, how far
 * each day's bucket was read, the pieces it told. The send ledger keeps it with the digest email's
 * handover, so a worker that stopped after the email was accepted and before the flush leaves enough
 * behind for the worker that settles the recipient to flush in its place.
 */
record DigestNote(String subscriberId, Map<LocalDate, Integer> positions, List<String> contentIds) {
  DigestNote {
    positions = Map.copyOf(positions);
    contentIds = List.copyOf(contentIds);
  }

  static DigestNote of(Digest digest) {
    return new DigestNote(
        digest.subscriberId(),
        digest.positions(),
        digest.items().stream().map(item -> item.content().id()).toList());
  }

  String text() {
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("subscriber", subscriberId);
    ObjectNode read = out.putObject("positions");
    positions.forEach((day, position) -> read.put(day.toString(), position));
    var told = out.putArray("told");
    contentIds.forEach(told::add);
    return out.toString();
  }

  static DigestNote parse(String text) {
    try {
      JsonNode node = Json.MAPPER.readTree(text);
      var positions = new LinkedHashMap<LocalDate, Integer>();
      node.path("positions")
          .properties()
          .forEach(entry ->
              positions.put(LocalDate.parse(entry.getKey()), entry.getValue().asInt()));
      var told = new ArrayList<String>();
      node.path("told").forEach(id -> told.add(id.asString()));
      String subscriber = node.path("subscriber").asString("");
      if (subscriber.isEmpty())
        throw new InvalidInputException(
            Problem.at("subscriber", Problem.Rule.MISSING, "a digest note names no subscriber"));
      return new DigestNote(subscriber, positions, told);
    } catch (JacksonException e) {
      throw new InvalidInputException(Problem.format("", "not a digest note: " + e.getMessage()));
    } catch (DateTimeParseException e) {
      // a day of the positions that is no date
      throw new InvalidInputException(
          Problem.format("positions", "not a digest note: " + e.getMessage()));
    }
  }
}
