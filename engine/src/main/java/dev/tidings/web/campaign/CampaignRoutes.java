package dev.tidings.web.campaign;

import dev.tidings.Json;
import dev.tidings.Problems;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.CampaignView;
import dev.tidings.campaign.editor.CampaignPreview;
import dev.tidings.campaign.editor.CampaignPreviews;
import dev.tidings.campaign.editor.SlotPreviews;
import dev.tidings.campaign.editor.SlotProduct;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.mail.Address;
import dev.tidings.mail.MimeEmails;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Page;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /api/v1/campaigns}: create, list (newest first, keyset pages, each campaign with its delivery
 * headline from the {@link CampaignHeadlines} port), read with the run's numbers,
 * replace and patch while DRAFT or SCHEDULED, delete while DRAFT; {@code send}, {@code pause},
 * {@code resume}, {@code cancel}, {@code trigger} one subscriber, and {@code preview} one subscriber's
 * email (tokens of the uncounted run, so opening it counts nothing) and the products its slots
 * would show now.
 */
public final class CampaignRoutes implements RouteGroup {
  static final String PATH = "/api/v1/campaigns";

  private final CampaignService campaigns;
  private final long maxBodyBytes;
  private final CampaignHeadlines headlines;
  private final CampaignPreviews previews;
  private final CampaignSendTimes sendTimes;

  /** Previews whose slots show nothing: a node without open-time slots. */
  public CampaignRoutes(
      CampaignService campaigns,
      CampaignEmails emails,
      long maxBodyBytes,
      CampaignHeadlines headlines) {
    this(
        campaigns,
        maxBodyBytes,
        headlines,
        new CampaignPreviews(campaigns, emails, SlotPreviews.NONE, InstantSource.system()));
  }

  public CampaignRoutes(
      CampaignService campaigns,
      long maxBodyBytes,
      CampaignHeadlines headlines,
      CampaignPreviews previews) {
    this(campaigns, maxBodyBytes, headlines, previews, CampaignSendTimes.NONE);
  }

  /** As the other, a per-subscriber campaign's view with its send-time figures. */
  public CampaignRoutes(
      CampaignService campaigns,
      long maxBodyBytes,
      CampaignHeadlines headlines,
      CampaignPreviews previews,
      CampaignSendTimes sendTimes) {
    this.sendTimes = sendTimes;
    this.campaigns = campaigns;
    this.maxBodyBytes = maxBodyBytes;
    this.headlines = headlines;
    this.previews = previews;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(PATH, (request, response) -> {
      int limit = Requests.limit(request);
      Optional<Long> before = Requests.query(request, "after").map(CampaignRoutes::id);
      var rows = campaigns.list(before, limit);
      var headline = headlines.of(rows.stream().map(Campaign::id).toList());
      JsonBodies.ok(
          response,
          Page.of(
              rows,
              limit,
              c -> withHeadline(toJson(campaigns.view(c)), headline.get(c.id())),
              c -> Long.toString(c.id())));
    });
    routing.post(PATH, (request, response) -> {
      Campaign created =
          campaigns.create(CampaignJson.fromJson(JsonBodies.read(request, maxBodyBytes)));
      response.header(HeaderNames.LOCATION, PATH + "/" + created.id());
      JsonBodies.write(response, 201, toJson(campaigns.view(created)));
    });
    routing.get(PATH + "/{id}", (request, response) -> {
      long id = id(request);
      var view = campaigns.view(id).orElseThrow(() -> notFound(id));
      ObjectNode out = toJson(view);
      if (view.campaign().definition().sendTime().perSubscriber())
        out.set("sendTimeFigures", sendTimeFigures(view.campaign()));
      JsonBodies.ok(response, out);
    });
    routing.put(PATH + "/{id}", (request, response) -> {
      long id = id(request);
      Campaign replaced = campaigns.replace(
          id, CampaignJson.fromJson(withoutId(id, JsonBodies.read(request, maxBodyBytes))));
      JsonBodies.ok(response, toJson(campaigns.view(replaced)));
    });
    routing.route(Method.PATCH, PATH + "/{id}", (request, response) -> {
      long id = id(request);
      Campaign patched = campaigns.patch(id, withoutId(id, JsonBodies.read(request, maxBodyBytes)));
      JsonBodies.ok(response, toJson(campaigns.view(patched)));
    });
    routing.delete(PATH + "/{id}", (request, response) -> {
      campaigns.delete(id(request));
      response.status(204).send();
    });
    routing.post(PATH + "/{id}/send", (request, response) -> {
      SendProgress progress = campaigns.send(id(request));
      JsonBodies.write(response, 202, progress(progress));
    });
    routing.post(PATH + "/{id}/pause", (request, response) -> {
      long id = id(request);
      campaigns.pause(id);
      JsonBodies.ok(response, toJson(campaigns.view(id).orElseThrow(() -> notFound(id))));
    });
    routing.post(PATH + "/{id}/resume", (request, response) -> {
      long id = id(request);
      campaigns.resume(id);
      JsonBodies.ok(response, toJson(campaigns.view(id).orElseThrow(() -> notFound(id))));
    });
    routing.post(PATH + "/{id}/cancel", (request, response) -> {
      long id = id(request);
      campaigns.cancel(id);
      JsonBodies.ok(response, toJson(campaigns.view(id).orElseThrow(() -> notFound(id))));
    });
    routing.post(PATH + "/{id}/trigger", (request, response) -> {
      long id = id(request);
      JsonNode body = JsonBodies.read(request, maxBodyBytes);
      JsonNode subscriber = body.get("subscriberId");
      if (subscriber == null || !subscriber.isString() || !Problems.isId(subscriber.asString()))
        throw ApiProblem.unprocessable(
            "subscriberId must be a subscriber id (1-64 characters of A-Z a-z 0-9 . _ : -)");
      var job = campaigns.trigger(id, subscriber.asString());
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("campaignId", job.campaignId());
      out.put("runId", job.runId());
      out.put("subscriberId", subscriber.asString());
      out.put("priority", job.priority());
      JsonBodies.write(response, 202, out);
    });
    routing.get(PATH + "/{id}/preview", (request, response) -> {
      long id = id(request);
      String subscriberId = Requests.query(request, "subscriber")
          .orElseThrow(
              () -> ApiProblem.badRequest("?subscriber= names the subscriber to preview for"));
      var preview = previews
          .preview(id, subscriberId)
          .orElseThrow(() -> ApiProblem.notFound("no subscriber with id " + subscriberId));
      JsonBodies.ok(response, preview(preview));
    });
  }

  /**
   * The run's recipients by planned hour and, per cohort (timed, held out), emails sent, people who
   * opened, their rate and their opens by hour after the send.
   */
  private ObjectNode sendTimeFigures(Campaign campaign) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    var planned = out.putArray("planned");
    for (var hour : campaigns.plannedByTime(campaign))
      planned.addObject().put("at", hour.getKey().toString()).put("recipients", hour.getValue());
    var cohorts = out.putArray("cohorts");
    for (var cohort : sendTimes.of(campaign.id())) {
      var entry = cohorts
          .addObject()
          .put("cohort", cohort.name().equals("timed") ? "timed" : "heldOut")
          .put("sent", cohort.sent())
          .put("humanOpened", cohort.humanOpened())
          .put("humanOpenRate", cohort.openRate());
      var hours = entry.putArray("humanOpensByHourAfterSend");
      for (long opens : cohort.opensByHour()) hours.add(opens);
    }
    return out;
  }

  static ObjectNode toJson(CampaignView view) {
    ObjectNode out = CampaignJson.toJson(view.campaign());
    out.put("state", view.state().name());
    view.progress().ifPresent(p -> out.set("progress", Json.MAPPER.valueToTree(progress(p))));
    return out;
  }

  private static ObjectNode withHeadline(
      ObjectNode campaign, CampaignHeadlines.@Nullable Headline headline) {
    if (headline == null) return campaign;
    ObjectNode out = campaign.putObject("headline");
    headline.counts().forEach(out::put);
    ObjectNode rates = out.putObject("rates");
    headline.rates().forEach(rates::put);
    return campaign;
  }

  static Map<String, Object> progress(SendProgress progress) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("runId", progress.job().runId());
    out.put("state", progress.state().name());
    out.put("planned", progress.planned());
    out.put("sent", progress.sent());
    out.put("failed", progress.failed());
    out.put("unknown", progress.unknown());
    out.put("skipped", progress.skipped());
    out.put("done", progress.done());
    out.put("startedAt", progress.startedAt().toString());
    progress.finishedAt().ifPresent(at -> out.put("finishedAt", at.toString()));
    out.put("recentPerSecond", progress.recentPerSecond());
    return out;
  }

  private static Map<String, Object> preview(CampaignPreview preview) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("subscriberId", preview.subscriberId());
    out.put("wouldSend", preview.wouldSend());
    preview.reason().ifPresent(reason -> out.put("skipped", reason));
    preview.email().ifPresent(email -> {
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Message-ID", MimeEmails.messageIdHeader(email));
      headers.put(OutgoingEmail.TIDINGS_MESSAGE_ID, email.messageId());
      headers.put("From", address(email.from()));
      headers.put("To", address(email.to()));
      headers.put("Subject", email.subject());
      email.replyTo().ifPresent(replyTo -> headers.put("Reply-To", address(replyTo)));
      headers.putAll(email.headers());
      out.put("headers", headers);
      out.put("listUnsubscribe", email.headers().get(CampaignRenderer.LIST_UNSUBSCRIBE));
      out.put("text", email.text());
      out.put("html", email.html().orElse(""));
    });
    out.put(
        "slotProducts",
        preview.slotProducts().stream().map(CampaignRoutes::slotProduct).toList());
    return out;
  }

  private static Map<String, Object> slotProduct(SlotProduct product) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", product.id());
    out.put("title", product.title());
    out.put("price", product.price());
    out.put("currency", product.currency().getCurrencyCode());
    out.put("imageUrl", product.imageUrl());
    return out;
  }

  private static String address(Address address) {
    return MimeEmails.display(address);
  }

  private static long id(ServerRequest request) {
    return Requests.campaignId(request);
  }

  private static long id(String text) {
    return Requests.campaignId(text);
  }

  /** A body may carry the campaign's id (read back from GET), but only the one in the path. */
  private static JsonNode withoutId(long id, JsonNode body) {
    if (body instanceof ObjectNode object && object.has("id")) {
      JsonNode given = object.get("id");
      // null names no other campaign: taken as absent, as a product's or subscriber's PUT takes it
      if (!given.isNull() && (!given.canConvertToLong() || given.asLong() != id))
        throw ApiProblem.unprocessable(
            "id in the body (" + given + ") differs from the id in the path (" + id + ")");
      object.remove("id");
    }
    return body;
  }

  private static ApiProblem notFound(long id) {
    return ApiProblem.notFound("no campaign with id " + id);
  }
}
