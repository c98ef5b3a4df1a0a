package dev.tidings.web.audience;

import dev.tidings.Json;
import dev.tidings.JsonFields;
import dev.tidings.Problems;
import dev.tidings.audience.AudienceJson;
import dev.tidings.audience.Follow;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberSearch;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.Suppression;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionService;
import dev.tidings.audience.TargetType;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.Imports;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Page;
import dev.tidings.web.Requests;
import dev.tidings.web.Resource;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.Uploads;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ObjectNode;

/** Subscribers, their follows, and the suppression list as REST resources, with bulk import. */
public final class AudienceRoutes implements RouteGroup {
  private final SubscriberService subscribers;
  private final FollowService follows;
  private final SuppressionService suppressions;
  private final SuppressionChanges changes;
  private final Resource<Subscriber> subscriberResource;
  private final InstantSource clock;
  private final long maxBodyBytes;
  private final Uploads uploads;

  /**
   * Import bodies past {@code maxImportBytes} are refused; larger ones wait in java.io.tmpdir.
   *
   * @param changes counts the suppressions this API adds and lifts
   */
  public AudienceRoutes(
      SubscriberService subscribers,
      FollowService follows,
      SuppressionService suppressions,
      SuppressionChanges changes,
      InstantSource clock,
      long maxBodyBytes,
      long maxImportBytes) {
    this(
        subscribers,
        follows,
        suppressions,
        changes,
        clock,
        maxBodyBytes,
        Uploads.inTemporaryDirectory(maxImportBytes));
  }

  /**
   * @param changes counts the suppressions this API adds and lifts
   * @param uploads how import bodies are received
   */
  public AudienceRoutes(
      SubscriberService subscribers,
      FollowService follows,
      SuppressionService suppressions,
      SuppressionChanges changes,
      InstantSource clock,
      long maxBodyBytes,
      Uploads uploads) {
    this.changes = changes;
    this.subscribers = subscribers;
    this.follows = follows;
    this.suppressions = suppressions;
    this.subscriberResource = new Resource<>(
        "/api/v1/subscribers",
        "subscriber",
        AudienceJson::subscriberFromJson,
        AudienceJson::toJson,
        Subscriber::id,
        subscribers::list,
        subscribers::get,
        subscribers::create,
        subscribers::put,
        subscribers::delete,
        subscribers::importStream);
    this.clock = clock;
    this.maxBodyBytes = maxBodyBytes;
    this.uploads = uploads;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    subscriberResource.register(routing, this::subscribersPage, maxBodyBytes, uploads);
    marketRoutes(routing);
    followRoutes(routing);
    suppressionRoutes(routing);
  }

  /** A page of every subscriber, or with {@code ?q=} of those it finds. */
  private List<Subscriber> subscribersPage(
      ServerRequest request, Optional<String> after, int limit) {
    var q = Requests.query(request, "q");
    if (q.isEmpty()) return subscribers.list(after, limit);
    SubscriberSearch.problem(q.get()).ifPresent(why -> {
      throw ApiProblem.badRequest(why);
    });
    return subscribers.search(new SubscriberSearch(q.get()), after, limit);
  }

  /** The market named on a subscriber: {@code {"market": "GB"}}, or null when none is (see README). */
  private void marketRoutes(HttpRouting.Builder routing) {
    routing.get("/api/v1/subscribers/{id}/market", (request, response) -> {
      String id = Requests.path(request, "id");
      var placement = subscribers.placements(List.of(id)).get(id);
      if (placement == null) throw subscriberResource.notFound(id);
      JsonBodies.ok(response, marketJson(placement.market()));
    });
    routing.put("/api/v1/subscribers/{id}/market", (request, response) -> {
      String id = Requests.path(request, "id");
      var body = JsonBodies.read(request, maxBodyBytes);
      if (!(body instanceof ObjectNode))
        throw ApiProblem.unprocessable("the body must be a JSON object");
      var problems = new Problems();
      String market = JsonFields.string(problems, body.get("market"), "market");
      problems.throwIfAny();
      if (!subscribers.placeInMarket(id, Optional.ofNullable(market)))
        throw subscriberResource.notFound(id);
      JsonBodies.ok(response, marketJson(Optional.ofNullable(market)));
    });
  }

  private static ObjectNode marketJson(Optional<String> market) {
    var node = Json.MAPPER.createObjectNode();
    if (market.isPresent()) node.put("market", market.get());
    else node.putNull("market");
    return node;
  }

  private void followRoutes(HttpRouting.Builder routing) {
    routing.get("/api/v1/subscribers/{id}/follows", (request, response) -> {
      String id = Requests.path(request, "id");
      if (subscribers.get(id).isEmpty()) throw subscriberResource.notFound(id);
      JsonBodies.ok(
          response,
          new Page(
              follows.followsOf(id).stream().map(AudienceJson::toJson).toList(), Optional.empty()));
    });
    routing.put("/api/v1/subscribers/{id}/follows/{type}/{target}", (request, response) -> {
      String id = Requests.path(request, "id");
      if (subscribers.get(id).isEmpty()) throw subscriberResource.notFound(id);
      Follow follow = follows.follow(new Follow(id, target(request), clock.instant()));
      JsonBodies.ok(response, AudienceJson.toJson(follow));
    });
    routing.delete("/api/v1/subscribers/{id}/follows/{type}/{target}", (request, response) -> {
      String id = Requests.path(request, "id");
      if (!follows.unfollow(id, target(request)))
        throw ApiProblem.notFound("subscriber " + id + " does not follow that");
      response.status(204).send();
    });
    routing.get("/api/v1/followers/{type}/{target}", (request, response) -> {
      int limit = Requests.limit(request);
      var rows = follows.followers(target(request), Requests.query(request, "after"), limit);
      JsonBodies.ok(response, Page.of(rows, limit, AudienceJson::toJson, Follow::subscriberId));
    });
    routing.post(
        "/api/v1/follows/import",
        (request, response) -> Imports.handle(request, response, uploads, follows::importStream));
  }

  private void suppressionRoutes(HttpRouting.Builder routing) {
    routing.get("/api/v1/suppressions", (request, response) -> {
      int limit = Requests.limit(request);
      var rows = suppressions.list(Requests.query(request, "after"), limit);
      JsonBodies.ok(response, Page.of(rows, limit, AudienceJson::toJson, Suppression::email));
    });
    routing.get("/api/v1/suppressions/{email}", (request, response) -> {
      String email = Requests.path(request, "email");
      JsonBodies.ok(
          response,
          AudienceJson.toJson(suppressions
              .get(email)
              .orElseThrow(() -> ApiProblem.notFound(email + " is not suppressed"))));
    });
    routing.put("/api/v1/suppressions/{email}", (request, response) -> {
      var body = JsonBodies.read(request, maxBodyBytes);
      if (!(body instanceof ObjectNode object))
        throw ApiProblem.unprocessable("the body must be a JSON object");
      object.put("email", Requests.path(request, "email"));
      var added = suppressions.add(AudienceJson.suppressionFromJson(object, clock));
      if (added.isNew())
        changes.changed(SuppressionChanges.Source.API, SuppressionChanges.Action.ADD);
      JsonBodies.ok(response, AudienceJson.toJson(added.stored()));
    });
    routing.delete("/api/v1/suppressions/{email}", (request, response) -> {
      String email = Requests.path(request, "email");
      if (!suppressions.unsuppress(email)) throw ApiProblem.notFound(email + " is not suppressed");
      changes.changed(SuppressionChanges.Source.API, SuppressionChanges.Action.LIFT);
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
    // A bad target id throws InvalidInputException: 422 with its problems,
    // like any other invalid input.
    return new FollowTarget(targetType, Requests.path(request, "target"));
  }
}
