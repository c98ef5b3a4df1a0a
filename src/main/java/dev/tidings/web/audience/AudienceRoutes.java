package dev.tidings.web.audience;

import dev.tidings.audience.AudienceJson;
import dev.tidings.audience.AudienceService;
import dev.tidings.audience.Follow;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.TargetType;
import dev.tidings.web.*;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Subscribers, their follows, and the suppression list as REST resources, with bulk import. */
public final class AudienceRoutes implements RouteGroup {
  private final AudienceService audience;
  private final Resource<Subscriber> subscribers;
  private final InstantSource clock;
  private final long maxBodyBytes;
  private final long maxImportBytes;

  public AudienceRoutes(
      AudienceService audience, InstantSource clock, long maxBodyBytes, long maxImportBytes) {
    this.audience = audience;
    this.subscribers = new Resource<>(
        "/api/v1/subscribers",
        "subscriber",
        AudienceJson::subscriberFromJson,
        AudienceJson::toJson,
        Subscriber::id,
        audience::listSubscribers,
        audience::getSubscriber,
        audience::putSubscriber,
        audience::deleteSubscriber,
        audience::importSubscribers);
    this.clock = clock;
    this.maxBodyBytes = maxBodyBytes;
    this.maxImportBytes = maxImportBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    subscribers.register(routing, maxBodyBytes, maxImportBytes);
    follows(routing);
    suppressions(routing);
  }

  private void follows(HttpRouting.Builder routing) {
    routing.get("/api/v1/subscribers/{id}/follows", (request, response) -> {
      String id = Requests.path(request, "id");
      if (audience.getSubscriber(id).isEmpty()) throw subscribers.notFound(id);
      JsonBodies.ok(
          response,
          new Page(
              audience.followsOf(id).stream().map(AudienceJson::toJson).toList(),
              java.util.Optional.empty()));
    });
    routing.put("/api/v1/subscribers/{id}/follows/{type}/{target}", (request, response) -> {
      String id = Requests.path(request, "id");
      if (audience.getSubscriber(id).isEmpty()) throw subscribers.notFound(id);
      Follow follow = audience.follow(new Follow(id, target(request), clock.instant()));
      JsonBodies.ok(response, AudienceJson.toJson(follow));
    });
    routing.delete("/api/v1/subscribers/{id}/follows/{type}/{target}", (request, response) -> {
      String id = Requests.path(request, "id");
      if (!audience.unfollow(id, target(request)))
        throw ApiProblem.notFound("subscriber " + id + " does not follow that");
      response.status(204).send();
    });
    routing.get("/api/v1/followers/{type}/{target}", (request, response) -> {
      int limit = Requests.limit(request);
      var rows = audience.followers(target(request), Requests.query(request, "after"), limit);
      JsonBodies.ok(response, Page.of(rows, limit, AudienceJson::toJson, Follow::subscriberId));
    });
    routing.post(
        "/api/v1/follows/import",
        (request, response) ->
            Imports.handle(request, response, maxImportBytes, audience::importFollows));
  }

  private void suppressions(HttpRouting.Builder routing) {
    routing.get("/api/v1/suppressions", (request, response) -> {
      int limit = Requests.limit(request);
      var rows = audience.listSuppressions(Requests.query(request, "after"), limit);
      JsonBodies.ok(response, Page.of(rows, limit, AudienceJson::toJson, Suppression::email));
    });
    routing.get("/api/v1/suppressions/{email}", (request, response) -> {
      String email = Requests.path(request, "email");
      JsonBodies.ok(
          response,
          AudienceJson.toJson(audience
              .suppression(email)
              .orElseThrow(() -> ApiProblem.notFound(email + " is not suppressed"))));
    });
    routing.put("/api/v1/suppressions/{email}", (request, response) -> {
      var body = JsonBodies.read(request, maxBodyBytes);
      if (!(body instanceof tools.jackson.databind.node.ObjectNode object))
        throw ApiProblem.unprocessable("the body must be a JSON object");
      object.put("email", Requests.path(request, "email"));
      JsonBodies.ok(
          response,
          AudienceJson.toJson(audience.suppress(AudienceJson.suppressionFromJson(object, clock))));
    });
    routing.delete("/api/v1/suppressions/{email}", (request, response) -> {
      String email = Requests.path(request, "email");
      if (!audience.unsuppress(email)) throw ApiProblem.notFound(email + " is not suppressed");
      response.status(204).send();
    });
  }

  private static FollowTarget target(ServerRequest request) {
    String type = Requests.path(request, "type");
    var targetType = TargetType.ofWire(type.toLowerCase(Locale.ROOT))
        .orElseThrow(() -> ApiProblem.badRequest("follow target type must be one of "
            + Arrays.stream(TargetType.values())
                .map(TargetType::wire)
                .collect(Collectors.joining(", "))
            + " but was '" + type + "'"));
    // A bad target id throws InvalidInputException: 422 with its problems, like any other invalid
    // input.
    return new FollowTarget(targetType, Requests.path(request, "target"));
  }
}
