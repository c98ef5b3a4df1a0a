package dev.tidings.web.journeys;

import dev.tidings.Json;
import dev.tidings.journeys.JourneyJson;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import tools.jackson.databind.node.ObjectNode;

/**
 * Journeys' definitions: {@code POST /api/v1/journeys} saves a new one as version 1; {@code PUT
 * /api/v1/journeys/{id}} saves an edit as the next version (people inside finish on theirs); list,
 * read the latest, and read any version as it was saved.
 */
public final class JourneyRoutes implements RouteGroup {
  private static final String BASE = "/api/v1/journeys";

  private final JourneyStore store;
  private final long maxBodyBytes;

  public JourneyRoutes(JourneyStore store, long maxBodyBytes) {
    this.store = store;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.post(BASE, (request, response) -> {
      var saved = store.create(JourneyJson.fromJson(JsonBodies.read(request, maxBodyBytes)));
      response.header(HeaderNames.LOCATION, BASE + "/" + saved.id());
      JsonBodies.write(response, 201, json(saved));
    });
    routing.get(BASE, (request, response) -> {
      var json = Json.MAPPER.createObjectNode();
      var items = json.putArray("items");
      for (JourneyStore.Listed listed : store.list())
        items
            .addObject()
            .put("id", listed.id())
            .put("name", listed.name())
            .put("version", listed.latestVersion())
            .put("createdAt", listed.createdAt().toString())
            .put("updatedAt", listed.updatedAt().toString());
      JsonBodies.ok(response, json);
    });
    routing.get(BASE + "/{id}", (request, response) -> {
      long id = id(request);
      JsonBodies.ok(response, json(store.latest(id).orElseThrow(() -> missing(id))));
    });
    routing.put(BASE + "/{id}", (request, response) -> {
      long id = id(request);
      var journey = JourneyJson.fromJson(JsonBodies.read(request, maxBodyBytes));
      JsonBodies.ok(response, json(store.revise(id, journey).orElseThrow(() -> missing(id))));
    });
    routing.get(BASE + "/{id}/versions/{version}", (request, response) -> {
      long id = id(request);
      String text = Requests.path(request, "version");
      int version = text.matches("[1-9][0-9]{0,8}") ? Integer.parseInt(text) : 0;
      var saved = store
          .version(id, version)
          .orElseThrow(() -> ApiProblem.notFound("journey " + id + " has no version '"
              + (text.length() > 12 ? text.substring(0, 12) + "..." : text) + "'"));
      JsonBodies.ok(response, json(saved));
    });
  }

  private static ObjectNode json(JourneyStore.Saved saved) {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("id", saved.id());
    json.put("version", saved.version());
    json.put("savedAt", saved.savedAt().toString());
    json.setAll(JourneyJson.toJson(saved.journey()));
    return json;
  }

  private static long id(ServerRequest request) {
    String text = Requests.path(request, "id");
    if (!text.matches("[1-9][0-9]{0,17}"))
      throw ApiProblem.notFound("there is no journey '"
          + (text.length() > 20 ? text.substring(0, 20) + "..." : text) + "'");
    return Long.parseLong(text);
  }

  private static ApiProblem missing(long id) {
    return ApiProblem.notFound("there is no journey " + id);
  }
}
