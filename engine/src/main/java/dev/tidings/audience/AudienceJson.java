package dev.tidings.audience;

import static dev.tidings.Problems.toValidate;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.imports.JsonRows;
import java.time.Instant;
import java.time.InstantSource;
import java.time.format.DateTimeParseException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Subscribers, follows and suppressions as JSON, field names as in the import formats; reading applies the
 * import's rules and messages (one row-mapping path for CSV, JSON Lines and the API).
 */
public final class AudienceJson {
  private AudienceJson() {}

  /** @throws InvalidInputException listing every problem */
  public static Subscriber subscriberFromJson(JsonNode node) {
    return JsonRows.read(node, SubscriberRows.INSTANCE);
  }

  /** @throws InvalidInputException listing every problem */
  public static Subscriber subscriberFromMap(Map<String, ?> map) {
    return JsonRows.readMap(map, SubscriberRows.INSTANCE);
  }

  /** A follow; without {@code followedAt} it is dated {@code clock.instant()}. */
  public static Follow followFromJson(JsonNode node, InstantSource clock) {
    return JsonRows.read(node, new FollowRows(clock));
  }

  public static Follow followFromMap(Map<String, ?> map, InstantSource clock) {
    return JsonRows.readMap(map, new FollowRows(clock));
  }

  /** {"email", "reason", "createdAt"?}; without createdAt it is dated {@code clock.instant()}. */
  public static Suppression suppressionFromJson(JsonNode node, InstantSource clock) {
    var problems = new Problems();
    if (!node.isObject())
      throw new InvalidInputException(Problem.format("", "expected a JSON object"));
    for (String name : node.propertyNames()) {
      if (!name.equals("email") && !name.equals("reason") && !name.equals("createdAt")) {
        problems.add(Problem.unknown(
            name, "unknown field '" + name + "' (fields: email, reason, createdAt)"));
      }
    }
    String givenEmail = text(node, "email", problems);
    String email = givenEmail == null ? null : Subscriber.email(problems, givenEmail);
    String reasonText = text(node, "reason", problems);
    SuppressionReason reason =
        reasonText == null ? null : SuppressionReason.ofWire(reasonText).orElse(null);
    if (reasonText != null && reason == null) {
      problems.add(Problem.unknown(
          "reason",
          "reason must be bounce, complaint, unsubscribe or manual, got "
              + Problems.quote(reasonText)));
    }
    String createdText = text(node, "createdAt", problems);
    Instant createdAt = clock.instant();
    if (createdText != null) {
      try {
        createdAt = Instant.parse(createdText);
      } catch (DateTimeParseException e) {
        problems.add(Problem.format(
            "createdAt",
            "createdAt must be an ISO-8601 instant, got " + Problems.quote(createdText)));
      }
    }
    problems.throwIfAny();
    return new Suppression(toValidate(email), toValidate(reason), createdAt);
  }

  private static @Nullable String text(JsonNode node, String field, Problems problems) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) return null;
    if (!value.isString()) {
      problems.add(Problem.format(field, field + " must be a string"));
      return null;
    }
    return value.stringValue();
  }

  public static ObjectNode toJson(Subscriber subscriber) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("id", subscriber.id());
    node.put("email", subscriber.email());
    subscriber.name().ifPresent(name -> node.put("name", name));
    node.put("locale", subscriber.locale().toLanguageTag());
    node.put("timeZone", subscriber.timeZone().getId());
    subscriber.location().ifPresent(location -> {
      location.point().ifPresent(point -> {
        node.put("latitude", point.latitude());
        node.put("longitude", point.longitude());
      });
      location.city().ifPresent(city -> node.put("city", city));
      location.country().ifPresent(country -> node.put("country", country));
    });
    node.put("consent", subscriber.consent().wire());
    subscriber.market().ifPresent(market -> node.put("market", market));
    return node;
  }

  public static ObjectNode toJson(Follow follow) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("subscriberId", follow.subscriberId());
    node.put("targetType", follow.target().type().wire());
    node.put("targetId", follow.target().id());
    node.put("followedAt", follow.followedAt().toString());
    return node;
  }

  public static ObjectNode toJson(Suppression suppression) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("email", suppression.email());
    node.put("reason", suppression.reason().wire());
    node.put("createdAt", suppression.createdAt().toString());
    return node;
  }
}
