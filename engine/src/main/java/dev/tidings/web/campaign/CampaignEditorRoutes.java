package dev.tidings.web.campaign;

import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.editor.CampaignBlocks;
import dev.tidings.campaign.editor.CampaignTemplateLibrary;
import dev.tidings.campaign.editor.StarterTemplate;
import dev.tidings.campaign.editor.TestSendResult;
import dev.tidings.campaign.editor.TestSends;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.ErrorBody;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a campaign editor asks besides the campaign itself: {@code /api/v1/campaign-templates} the
 * starter campaigns, {@code /api/v1/campaign-blocks} snippets of template, {@code
 * /api/v1/audiences/count} how many an audience holds now, and {@code /api/v1/campaigns/{id}/test} a
 * test send to a typed address.
 */
public final class CampaignEditorRoutes implements RouteGroup {
  static final String TEMPLATES = "/api/v1/campaign-templates";
  static final String BLOCKS = "/api/v1/campaign-blocks";
  static final String AUDIENCE_COUNT = "/api/v1/audiences/count";

  private final CampaignService campaigns;
  private final CampaignTemplateLibrary templates;
  private final TestSends testSends;
  private final long maxBodyBytes;

  public CampaignEditorRoutes(
      CampaignService campaigns,
      CampaignTemplateLibrary templates,
      TestSends testSends,
      long maxBodyBytes) {
    this.campaigns = campaigns;
    this.templates = templates;
    this.testSends = testSends;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(
        TEMPLATES,
        (request, response) -> JsonBodies.ok(
            response,
            Map.of(
                "items",
                templates.list().stream().map(CampaignEditorRoutes::summary).toList())));
    routing.get(TEMPLATES + "/{name}", (request, response) -> {
      String name = Requests.path(request, "name");
      StarterTemplate template = templates
          .get(name)
          .orElseThrow(() -> ApiProblem.notFound("no starter template named " + name));
      JsonBodies.ok(response, whole(template));
    });
    routing.post(BLOCKS, (request, response) -> {
      var snippet =
          CampaignBlocks.snippet(CampaignBlocks.fromJson(JsonBodies.read(request, maxBodyBytes)));
      JsonBodies.ok(response, Map.of("html", snippet.html(), "text", snippet.text()));
    });
    routing.post(AUDIENCE_COUNT, (request, response) -> {
      JsonNode body = only(JsonBodies.read(request, maxBodyBytes), Set.of("audience"));
      long count = campaigns.countAudience(CampaignJson.audienceFromJson(body.get("audience")));
      JsonBodies.ok(response, Map.of("count", count));
    });
    routing.post(CampaignRoutes.PATH + "/{id}/test", (request, response) -> {
      long id = Requests.campaignId(request);
      JsonNode body = only(JsonBodies.read(request, maxBodyBytes), Set.of("to", "subscriberId"));
      JsonNode to = body.get("to");
      if (to == null || !to.isString())
        throw ApiProblem.unprocessable("to must be the email address to send the test to");
      JsonNode subscriber = body.get("subscriberId");
      if (subscriber != null && !subscriber.isNull() && !subscriber.isString())
        throw ApiProblem.unprocessable("subscriberId must be a subscriber id or absent");
      Optional<String> subscriberId = subscriber == null || subscriber.isNull()
          ? Optional.empty()
          : Optional.of(subscriber.asString());
      switch (testSends.send(id, to.asString(), subscriberId)) {
        case TestSendResult.Sent sent -> {
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("outcome", "sent");
          out.put("messageId", sent.messageId());
          out.put("to", sent.to());
          out.put("subject", sent.subject());
          JsonBodies.ok(response, out);
        }
        case TestSendResult.Refused refused ->
          throw ApiProblem.unprocessable("no test email can be written: " + refused.reason());
        case TestSendResult.Failed failed ->
          JsonBodies.write(
              response,
              502,
              new ErrorBody(
                  "bad_gateway",
                  "the mail server did not take the test email: " + failed.reason()));
        case TestSendResult.Limited limited -> {
          long seconds = Math.max(1, (limited.retryAfter().toMillis() + 999) / 1000);
          response.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
          JsonBodies.write(
              response,
              429,
              new ErrorBody(
                  "too_many_requests",
                  "too many test sends on this node this minute; try again in " + seconds + " s"));
        }
      }
    });
  }

  /** The body as an object holding no field but {@code allowed}. */
  private static JsonNode only(JsonNode body, Set<String> allowed) {
    if (!(body instanceof ObjectNode object))
      throw ApiProblem.unprocessable("the body must be a JSON object");
    for (String field : object.propertyNames())
      if (!allowed.contains(field))
        throw ApiProblem.unprocessable("unknown field '" + field + "'; the body has "
            + String.join(", ", allowed.stream().sorted().toList()));
    return object;
  }

  private static Map<String, Object> summary(StarterTemplate template) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", template.name());
    out.put("title", template.title());
    out.put("description", template.description());
    out.put("slots", template.slots());
    out.put("digest", template.digest().isPresent());
    return out;
  }

  private static Map<String, Object> whole(StarterTemplate template) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", template.name());
    out.put("title", template.title());
    out.put("description", template.description());
    out.put("subject", template.subject());
    out.put("html", template.html());
    out.put("text", template.text());
    out.put("slots", template.slots());
    template
        .digest()
        .ifPresent(digest -> out.put(
            "digest", Map.of("lookBackDays", digest.lookBackDays(), "minimum", digest.minimum())));
    return out;
  }
}
