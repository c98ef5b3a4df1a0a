package dev.tidings.web.notify;

import dev.tidings.InvalidInputException;
import dev.tidings.JsonFields;
import dev.tidings.Problems;
import dev.tidings.notify.Content;
import dev.tidings.notify.ContentJson;
import dev.tidings.notify.Notifications;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Page;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Content ({@code /api/v1/content}: create or replace by id, read, list, delete, publish, unpublish) and
 * a user's pending notifications ({@code GET /api/v1/users/{id}/notifications?since=7d}).
 */
public final class NotifyRoutes implements RouteGroup {
  private static final String PATH = "/api/v1/content";
  private static final Pattern SINCE = Pattern.compile("(\\d{1,2})d");

  private final Notifications notifications;
  private final long maxBodyBytes;

  public NotifyRoutes(Notifications notifications, long maxBodyBytes) {
    this.notifications = notifications;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(PATH, (request, response) -> {
      int limit = Requests.limit(request);
      var rows = notifications.page(Requests.query(request, "after"), limit);
      JsonBodies.ok(response, Page.of(rows, limit, ContentJson::toJson, Content::id));
    });
    routing.post(PATH + "/import", (request, response) -> {
      JsonNode body = JsonBodies.read(request, maxBodyBytes);
      if (!body.isArray())
        throw ApiProblem.badRequest("expected a JSON array of content, each with its id");
      var pieces = new ArrayList<Content>();
      var publish = new HashSet<String>();
      var ids = new HashSet<String>();
      var problems = new ArrayList<String>();
      int position = 0;
      for (JsonNode element : body) {
        position++;
        String id = element.path("id").asString("");
        if (!Problems.isId(id)) {
          problems.add(
              "content " + position + ": id must be 1-64 characters of A-Z a-z 0-9 . _ : -");
          continue;
        }
        if (!ids.add(id)) {
          problems.add("content " + position + ": id " + id + " comes twice");
          continue;
        }
        // published is the import's own field: absent or null is not published, as the other
        // optional fields of a piece read absent and null alike
        var found = new Problems();
        Boolean published = JsonFields.bool(found, element.get("published"), "published");
        Content piece = found.element("", "", () -> ContentJson.fromJson(id, element));
        if (piece != null) pieces.add(piece);
        if (!found.isEmpty())
          problems.add("content " + position + ": " + String.join("; ", found.list()));
        else if (Boolean.TRUE.equals(published)) publish.add(id);
      }
      if (!problems.isEmpty()) throw new InvalidInputException(problems);
      JsonBodies.ok(response, notifications.importAll(pieces, publish));
    });
    routing.put(PATH + "/{id}", (request, response) -> {
      String id = id(request);
      Content content = ContentJson.fromJson(id, JsonBodies.read(request, maxBodyBytes));
      boolean created = notifications.put(content);
      if (created) response.header(HeaderNames.LOCATION, PATH + "/" + id);
      JsonBodies.write(
          response,
          created ? 201 : 200,
          ContentJson.toJson(notifications.get(id).orElseThrow()));
    });
    routing.get(PATH + "/{id}", (request, response) -> {
      String id = id(request);
      JsonBodies.ok(
          response, ContentJson.toJson(notifications.get(id).orElseThrow(() -> notFound(id))));
    });
    routing.delete(PATH + "/{id}", (request, response) -> {
      String id = id(request);
      if (!notifications.delete(id)) throw notFound(id);
      response.status(204).send();
    });
    routing.post(PATH + "/{id}/publish", (request, response) -> {
      String id = id(request);
      var published = notifications.publish(id).orElseThrow(() -> notFound(id));
      var body = ContentJson.toJson(published.content());
      body.put("followersNotified", published.followers());
      body.put("nearbyNotified", published.nearby());
      JsonBodies.ok(response, body);
    });
    routing.post(PATH + "/{id}/unpublish", (request, response) -> {
      String id = id(request);
      JsonBodies.ok(
          response,
          ContentJson.toJson(notifications.unpublish(id).orElseThrow(() -> notFound(id))));
    });
    routing.get("/api/v1/users/{id}/notifications", (request, response) -> {
      String user = Requests.path(request, "id");
      String since = Requests.query(request, "since").orElse("7d");
      Matcher days = SINCE.matcher(since);
      if (!days.matches())
        throw ApiProblem.badRequest("since must be a number of days such as 7d (1d to "
            + Notifications.MAX_DAYS + "d), got " + Problems.quote(since));
      int lookBack = Integer.parseInt(days.group(1));
      if (lookBack < 1 || lookBack > Notifications.MAX_DAYS)
        throw ApiProblem.badRequest(
            "since must be 1d to " + Notifications.MAX_DAYS + "d, got " + since);
      JsonBodies.ok(response, ContentJson.toJson(notifications.digest(user, lookBack)));
    });
    routing.get("/api/v1/campaigns/{id}/digests", (request, response) -> {
      long campaign = Requests.campaignId(request);
      JsonBodies.ok(response, ContentJson.toJson(notifications.digestsSent(campaign, 20)));
    });
  }

  private static String id(ServerRequest request) {
    String id = Requests.path(request, "id");
    if (!Problems.isId(id))
      throw ApiProblem.badRequest(
          "a content id is 1-64 characters of A-Z a-z 0-9 . _ : -, got " + Problems.quote(id));
    return id;
  }

  private static ApiProblem notFound(String id) {
    return ApiProblem.notFound("no content " + id);
  }
}
