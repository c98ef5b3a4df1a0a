package dev.tidings.recommend.evaluation;

import dev.tidings.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Reads Tidings' {@code events} import format (JSON Lines, or CSV with a header; {@code .gz} too) as
 * interactions. Only purchases and add-to-cart say a user wanted an item enough to pay for it; views,
 * clicks, follows and email activity are skipped. An event id seen before is a replay and counts once.
 * A basket is the event's {@code sessionId} when given, else all of a user's events at one instant.
 * Invalid lines stop the read with their line number: an evaluation on silently dropped data would
 * mislead.
 */
public final class EventsReader {
  static final String NOT_A_PURCHASE = "not purchase or add_to_cart";
  static final String REPLAY = "event id seen before";

  private EventsReader() {}

  public static LoadReport read(Path file, Interactions.Builder into, LongConsumer linesDone)
      throws IOException {
    String name = file.getFileName().toString();
    boolean gzip = name.endsWith(".gz");
    String plainName = gzip ? name.substring(0, name.length() - 3) : name;
    boolean csv = plainName.endsWith(".csv");
    if (!csv && !plainName.endsWith(".jsonl") && !plainName.endsWith(".ndjson")) {
      throw new IOException("cannot tell the format of " + name + ": use .jsonl, .ndjson or .csv");
    }
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw) {
      var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
      return new Reading(into, linesDone).run(reader, csv);
    }
  }

  private static final class Reading {
    private final Interactions.Builder into;
    private final LongConsumer linesDone;
    private final Set<String> eventIds = new HashSet<>();
    private final Map<String, Long> dropped = new LinkedHashMap<>();
    private long lines;
    private long kept;

    Reading(Interactions.Builder into, LongConsumer linesDone) {
      this.into = into;
      this.linesDone = linesDone;
    }

    LoadReport run(BufferedReader reader, boolean csv) throws IOException {
      List<String> header = List.of();
      if (csv) {
        String first = reader.readLine();
        if (first == null) throw new IOException("empty file: a CSV header is required");
        header = new ArrayList<>();
        OnlineRetailReader.split(first, header);
        header.replaceAll(EventsReader::camelCase);
        lines++;
      }
      List<String> cells = new ArrayList<>();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines++;
        if ((lines & 0xFFFF) == 0) linesDone.accept(lines);
        if (line.isBlank()) continue;
        Map<String, String> fields;
        if (csv) {
          OnlineRetailReader.split(line, cells);
          fields = new HashMap<>();
          for (int at = 0; at < Math.min(header.size(), cells.size()); at++) {
            if (!cells.get(at).isEmpty()) fields.put(header.get(at), cells.get(at));
          }
        } else {
          fields = jsonFields(line);
        }
        accept(fields);
      }
      linesDone.accept(lines);
      return new LoadReport(lines, kept, dropped);
    }

    private Map<String, String> jsonFields(String line) throws IOException {
      JsonNode node;
      try {
        node = Json.MAPPER.readTree(line);
      } catch (RuntimeException e) {
        throw new IOException("line " + lines + ": not a JSON object", e);
      }
      if (!node.isObject()) throw new IOException("line " + lines + ": not a JSON object");
      Map<String, String> fields = new HashMap<>();
      for (var entry : node.properties()) {
        if (!entry.getValue().isNull())
          fields.put(entry.getKey(), entry.getValue().asString());
      }
      return fields;
    }

    private void accept(Map<String, String> fields) throws IOException {
      String type = required(fields, "type");
      String user = required(fields, "userId");
      String item = required(fields, "itemId");
      long time;
      try {
        time = Instant.parse(required(fields, "timestamp")).getEpochSecond();
      } catch (DateTimeParseException e) {
        throw new IOException("line " + lines + ": timestamp is not an ISO-8601 instant");
      }
      if (!type.equals("purchase") && !type.equals("add_to_cart")) {
        dropped.merge(NOT_A_PURCHASE, 1L, Long::sum);
        return;
      }
      String eventId = fields.get("eventId");
      if (eventId != null && !eventIds.add(eventId)) {
        dropped.merge(REPLAY, 1L, Long::sum);
        return;
      }
      int quantity = 1;
      String given = fields.get("quantity");
      if (given != null) {
        try {
          quantity = Integer.parseInt(given.trim());
        } catch (NumberFormatException e) {
          quantity = 0;
        }
        if (quantity < 1) throw new IOException("line " + lines + ": quantity must be >= 1");
      }
      String session = fields.get("sessionId");
      into.add(user, item, session != null ? "s:" + session : "t:" + time, time, quantity);
      kept++;
    }

    private String required(Map<String, String> fields, String name) throws IOException {
      @Nullable String value = fields.get(name);
      if (value == null || value.isBlank()) {
        throw new IOException("line " + lines + ": missing required field '" + name + "'");
      }
      return value;
    }
  }

  /** CSV headers may spell fields in snake_case, as the import formats allow. */
  static String camelCase(String field) {
    var out = new StringBuilder();
    boolean upper = false;
    for (char c : field.trim().toCharArray()) {
      if (c == '_') {
        upper = true;
      } else {
        out.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return out.toString();
  }
}
