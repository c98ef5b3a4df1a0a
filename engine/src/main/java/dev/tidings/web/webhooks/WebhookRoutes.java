package dev.tidings.web.webhooks;

import dev.tidings.Json;
import dev.tidings.Problems;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import dev.tidings.webhooks.WebhookDeadLetters;
import dev.tidings.webhooks.WebhookEndpoint;
import dev.tidings.webhooks.WebhookEndpoints;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.regex.Pattern;

/**
 * The shop's webhook endpoints: {@code POST /api/v1/webhooks} registers one and answers its secret,
 * once; list, read, change ({@code PATCH}: url, description, eventTypes, enabled) and delete; {@code
 * POST /api/v1/webhooks/{id}/rotate-secret} answers a new secret while the previous one stays valid
 * for 24 hours.
 */
public final class WebhookRoutes implements RouteGroup {
  private static final String BASE = "/api/v1/webhooks";
  private static final Pattern ID = Pattern.compile("ep_[0-9a-f]{16}");

  private final WebhookEndpoints endpoints;
  private final WebhookDeadLetters deadLetters;
  private final long maxBodyBytes;

  public WebhookRoutes(
      WebhookEndpoints endpoints, WebhookDeadLetters deadLetters, long maxBodyBytes) {
    this.endpoints = endpoints;
    this.deadLetters = deadLetters;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.post(BASE, (request, response) -> {
      var created = endpoints.create(WebhookJson.fields(JsonBodies.read(request, maxBodyBytes)));
      var json = WebhookJson.toJson(created.endpoint());
      // the one answer that shows it: the receiver needs it to verify, and it is stored nowhere
      // else
      json.put("secret", created.secret().value());
      response.header(HeaderNames.LOCATION, BASE + "/" + created.endpoint().id());
      JsonBodies.write(response, 201, json);
    });
    routing.get(BASE, (request, response) -> {
      var json = Json.MAPPER.createObjectNode();
      var items = json.putArray("items");
      endpoints.list().forEach(endpoint -> items.add(WebhookJson.toJson(endpoint)));
      JsonBodies.ok(response, json);
    });
    routing.get(
        BASE + "/{id}",
        (request, response) -> JsonBodies.ok(response, WebhookJson.toJson(found(request))));
    routing.patch(BASE + "/{id}", (request, response) -> {
      String id = id(request);
      var fields = WebhookJson.fields(JsonBodies.read(request, maxBodyBytes));
      var updated = endpoints.update(id, fields).orElseThrow(() -> missing(id));
      JsonBodies.ok(response, WebhookJson.toJson(updated));
    });
    routing.delete(BASE + "/{id}", (request, response) -> {
      String id = id(request);
      if (!endpoints.delete(id)) throw missing(id);
      deadLetters.dropFor(id);
      response.status(204).send();
    });
    routing.post(BASE + "/{id}/rotate-secret", (request, response) -> {
      String id = id(request);
      var rotated = endpoints.rotate(id).orElseThrow(() -> missing(id));
      var json = WebhookJson.toJson(rotated.endpoint());
      json.put("secret", rotated.secret().value());
      JsonBodies.ok(response, json);
    });
  }

  private WebhookEndpoint found(ServerRequest request) {
    String id = id(request);
    return endpoints.get(id).orElseThrow(() -> missing(id));
  }

  private static String id(ServerRequest request) {
    String id = Requests.path(request, "id");
    if (!ID.matcher(id).matches())
      throw ApiProblem.notFound("there is no webhook endpoint "
          + Problems.quote(id.length() > 40 ? id.substring(0, 40) + "..." : id));
    return id;
  }

  private static ApiProblem missing(String id) {
    return ApiProblem.notFound("there is no webhook endpoint " + id);
  }
}
