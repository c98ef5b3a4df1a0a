package dev.tidings.notify;

import static dev.tidings.Problems.toValidate;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.JsonFields;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.GeoPoint;
import dev.tidings.audience.TargetType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Content and digests as JSON; reading names every problem at once. */
public final class ContentJson {
  private static final Set<String> FIELDS = Set.of(
      "id",
      "type",
      "title",
      "url",
      "imageUrl",
      "owners",
      "location",
      "radiusKm",
      "startsAt",
      "endsAt",
      "published");

  private ContentJson() {}

  private static String orEmpty(@Nullable String text) {
    return text == null ? "" : text;
  }

  /**
   * A piece of content; {@code id} is the one its URL names (a body's id must match it). Whether it is
   * published is not set here but by publishing it.
   *
   * @throws InvalidInputException listing every problem
   */
  public static Content fromJson(String id, JsonNode node) {
    if (!node.isObject())
      throw new InvalidInputException(Problem.format("", "expected a JSON object"));
    var problems = new Problems();
    for (String name : node.propertyNames())
      if (!FIELDS.contains(name))
        problems.add(Problem.unknown(
            name,
            "unknown field '" + name + "' (fields: "
                + String.join(", ", FIELDS.stream().sorted().toList()) + ")"));
    String given = JsonFields.string(problems, node.get("id"), "id");
    if (given != null && !given.equals(id))
      problems.add(Problem.at(
          "id",
          Problem.Rule.OTHER,
          "id in the body (" + given + ") is not the id in the URL (" + id + ")"));
    String typeText = JsonFields.string(problems, node.get("type"), "type");
    ContentType type = typeText == null ? null : ContentType.ofWire(typeText).orElse(null);
    if (!JsonFields.given(node.get("type"))) problems.add(Problem.missing("type"));
    else if (typeText != null && type == null)
      problems.add(Problem.unknown(
          "type",
          "type must be product, artwork, article, show or event, got "
              + Problems.quote(typeText)));
    var owners = new ArrayList<FollowTarget>();
    JsonNode ownerList = node.path("owners");
    if (!ownerList.isMissingNode() && !ownerList.isArray())
      problems.add(Problem.format("owners", "owners must be a list of {\"type\", \"id\"}"));
    int position = 0;
    for (JsonNode owner : ownerList.isArray() ? ownerList : Json.MAPPER.createArrayNode()) {
      position++;
      String where = "owners[" + (position - 1) + "]";
      if (!owner.isObject()) {
        problems.add(Problem.format(
            where,
            "owner " + position + " must be {\"type\", \"id\"}, got " + JsonFields.kind(owner)));
        continue;
      }
      int before = problems.list().size();
      String ownerType = orEmpty(JsonFields.string(problems, owner.get("type"), where + ".type"));
      String ownerId = orEmpty(JsonFields.string(problems, owner.get("id"), where + ".id"));
      if (problems.list().size() > before) continue;
      var target = TargetType.ofWire(ownerType);
      if (target.isEmpty())
        problems.add(Problem.at(
            where + ".type",
            ownerType.isEmpty() ? Problem.Rule.MISSING : Problem.Rule.UNKNOWN,
            "owner " + position + ": type must be brand, artist, gallery, store or category, got "
                + Problems.quote(ownerType)));
      else if (ownerId.isEmpty() || ownerId.length() > 200)
        problems.add(Problem.at(
            where + ".id",
            ownerId.isEmpty() ? Problem.Rule.MISSING : Problem.Rule.RANGE,
            "owner " + position + ": id must be 1-200 characters"));
      else owners.add(new FollowTarget(target.get(), ownerId));
    }
    Optional<GeoPoint> location = Optional.empty();
    JsonNode place = node.path("location");
    if (!place.isMissingNode() && !place.isNull()) {
      if (!place.isObject()
          || !JsonFields.given(place.get("latitude"))
          || !JsonFields.given(place.get("longitude")))
        problems.add(Problem.format(
            "location", "location must be {\"latitude\": number, \"longitude\": number}"));
      else {
        Double latitude =
            JsonFields.number(problems, place.get("latitude"), "location.latitude", -90, 90);
        Double longitude =
            JsonFields.number(problems, place.get("longitude"), "location.longitude", -180, 180);
        if (latitude != null && longitude != null) {
          try {
            location = Optional.of(new GeoPoint(latitude, longitude));
          } catch (InvalidInputException e) {
            e.asProblems().forEach(p -> problems.add(p.under("location", "location: ")));
          }
        }
      }
    }
    // Content's own rule (above 0, at most 1000) reports 0;
    // this one keeps 1e400 from becoming Infinity
    Double radius = JsonFields.number(problems, node.get("radiusKm"), "radiusKm", 0, 1_000);
    String title = JsonFields.string(problems, node.get("title"), "title");
    String url = JsonFields.string(problems, node.get("url"), "url");
    String imageUrl = JsonFields.string(problems, node.get("imageUrl"), "imageUrl");
    Optional<Instant> startsAt = instant(node, "startsAt", problems);
    Optional<Instant> endsAt = instant(node, "endsAt", problems);
    problems.throwIfAny();
    return new Content(
        id,
        toValidate(type),
        toValidate(title),
        Optional.ofNullable(url),
        Optional.ofNullable(imageUrl),
        owners,
        location,
        radius == null ? Content.DEFAULT_RADIUS_KM : radius,
        startsAt,
        endsAt,
        false);
  }

  /**
   * The span a content's time may fall in: an ISO-8601 instant may name a year far past what
   * PostgreSQL stores; refused here, such a time is a 422 naming the field, not a failed insert.
   */
  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

  private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

  private static Optional<Instant> instant(JsonNode node, String field, Problems problems) {
    @Nullable String text = JsonFields.string(problems, node.get(field), field);
    if (text == null) return Optional.empty();
    try {
      Instant at = Instant.parse(text);
      if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) {
        problems.add(Problem.range(
            field, field + " must be within the years 1 to 9999, got " + Problems.quote(text)));
        return Optional.empty();
      }
      return Optional.of(at);
    } catch (DateTimeParseException e) {
      problems.add(Problem.format(
          field, field + " must be an ISO-8601 instant, got " + Problems.quote(text)));
      return Optional.empty();
    }
  }

  public static ObjectNode toJson(Content content) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("id", content.id());
    node.put("type", content.type().wire());
    node.put("title", content.title());
    content.url().ifPresent(url -> node.put("url", url));
    content.imageUrl().ifPresent(url -> node.put("imageUrl", url));
    var owners = node.putArray("owners");
    content
        .owners()
        .forEach(o -> owners.addObject().put("type", o.type().wire()).put("id", o.id()));
    content
        .location()
        .ifPresent(at -> node.putObject("location")
            .put("latitude", at.latitude())
            .put("longitude", at.longitude()));
    node.put("radiusKm", content.radiusKm());
    content.startsAt().ifPresent(t -> node.put("startsAt", t.toString()));
    content.endsAt().ifPresent(t -> node.put("endsAt", t.toString()));
    node.put("published", content.published());
    return node;
  }

  /** A campaign's digests: {@code {"digests", "pieces", "mostTold": [...], "latest": [...]}}. */
  public static ObjectNode toJson(DigestsSent.Summary summary) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("digests", summary.digests());
    node.put("pieces", summary.pieces());
    var most = node.putArray("mostTold");
    for (var told : summary.mostTold())
      most.addObject()
          .put("contentId", told.contentId())
          .put("title", told.title())
          .put("digests", told.digests());
    var latest = node.putArray("latest");
    for (var sent : summary.latest()) {
      var entry = latest
          .addObject()
          .put("userId", sent.subscriberId())
          .put("sentAt", sent.sentAt().toString());
      var ids = entry.putArray("contentIds");
      sent.contentIds().forEach(ids::add);
    }
    return node;
  }

  /** The digest per day, newest first: {@code {"userId", "days": [{"day", "items": [{"kind", "content"}]}]}}. */
  public static ObjectNode toJson(Digest digest) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("userId", digest.subscriberId());
    var days = node.putArray("days");
    ObjectNode current = null;
    for (Digest.Notification item : digest.items()) {
      if (current == null || !current.path("day").asString("").equals(item.day().toString())) {
        current = days.addObject();
        current.put("day", item.day().toString());
        current.putArray("items");
      }
      ObjectNode entry = ((ArrayNode) current.get("items")).addObject();
      entry.put("kind", item.kind().wire());
      entry.set("content", toJson(item.content()));
    }
    node.put("count", digest.items().size());
    return node;
  }
}
