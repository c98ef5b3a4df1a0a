package dev.tidings.campaign;

import dev.tidings.Json;
import dev.tidings.audience.Consent;
import dev.tidings.audience.GeoPoint;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/** Campaigns and subscribers the campaign tests share. */
final class Fixtures {
  static final String HTML = """
      <html><body><h1>Hello {{subscriber.firstName}}</h1>
      <p>News for {{subscriber.city}}: <a href="https://shop.example/autumn?c={{campaign.id}}">the edit</a></p>
      {{#slots}}<a href="{{clickUrl}}"><img src="{{imageUrl}}" alt="Pick {{number}}"></a>{{/slots}}
      <a href="{{unsubscribeUrl}}">Unsubscribe</a></body></html>""";
  static final String TEXT = "Hello {{subscriber.name}}\n{{#slots}}{{clickUrl}}\n{{/slots}}";

  private Fixtures() {}

  /** A valid campaign as the API takes it. */
  static ObjectNode json() {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("name", "Autumn edit");
    json.set(
        "from",
        Json.MAPPER.createObjectNode().put("email", "news@shop.example").put("name", "Shop"));
    json.put("replyTo", "care@shop.example");
    json.put("subject", "{{subscriber.firstName}}, six picks for you");
    json.put("html", HTML);
    json.put("text", TEXT);
    json.put("slots", 6);
    json.put("priority", 3);
    json.put("ratePerSecond", 250);
    return json;
  }

  static CampaignDefinition definition() {
    return CampaignJson.fromJson(json());
  }

  static Subscriber subscriber(String id, String email, String name, String city) {
    return new Subscriber(
        id,
        email,
        Optional.of(name),
        Locale.forLanguageTag("de-AT"),
        ZoneId.of("Europe/Vienna"),
        Optional.of(new Location(
            Optional.of(new GeoPoint(48.2, 16.37)), Optional.of(city), Optional.of("AT"))),
        Consent.SUBSCRIBED);
  }
}
