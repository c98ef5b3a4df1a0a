package dev.tidings.web.events;

import dev.tidings.Json;
import dev.tidings.Problems;
import dev.tidings.events.CloudEvent;
import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventLog;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /api/v1/events?after=CURSOR&limit=N&type=T} (the relayed events past a cursor, oldest
 * first, in the CloudEvents JSON format, with the cursor to ask from next) and {@code GET
 * /api/v1/events/types} (every event type). The cursor is an event's position as a decimal number; a
 * client starts from 0 (or leaves {@code after} out) and loops on {@code after=next}.
 */
public final class EventsRoutes implements RouteGroup {
  public static final String PATH = "/api/v1/events";
  private static final Pattern CURSOR = Pattern.compile("[0-9]{1,19}");

  private final EventLog log;

  public EventsRoutes(EventLog log) {
    this.log = log;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(PATH, (request, response) -> {
      long after = after(request);
      int limit = Requests.limit(request);
      Set<CloudEventType> types = types(request);
      List<CloudEvent> events = log.after(after, limit, types);
      ObjectNode body = Json.MAPPER.createObjectNode();
      ArrayNode array = body.putArray("events");
      events.forEach(event -> array.add(event.json()));
      body.put("next", Long.toString(events.isEmpty() ? after : events.getLast().position()));
      JsonBodies.ok(response, body);
    });
    routing.get(PATH + "/types", (request, response) -> {
      ObjectNode body = Json.MAPPER.createObjectNode();
      ArrayNode array = body.putArray("types");
      for (CloudEventType type : CloudEventType.values()) array.add(type.typeName());
      JsonBodies.ok(response, body);
    });
  }

  /** {@code ?after=}: a position, 0 or more; 0 when absent. */
  private static long after(ServerRequest request) {
    var raw = Requests.query(request, "after");
    if (raw.isEmpty()) return 0;
    String text = raw.get();
    if (CURSOR.matcher(text).matches()) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException tooLarge) {
        // answered below
      }
    }
    throw ApiProblem.badRequest(
        "after must be a cursor: the whole number 0 or more that an answer's" + " next gave, got "
            + Problems.quote(shorter(text)));
  }

  /** {@code ?type=}, repeated: the event types to answer; every type when absent. */
  private static Set<CloudEventType> types(ServerRequest request) {
    List<String> names = request.query().all("type", List::of);
    Set<CloudEventType> types = EnumSet.noneOf(CloudEventType.class);
    for (String name : names)
      types.add(CloudEventType.named(name)
          .orElseThrow(() -> ApiProblem.badRequest("type " + Problems.quote(shorter(name))
              + " is not an event type; GET " + PATH + "/types lists them")));
    return types;
  }

  private static String shorter(String text) {
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }
}
