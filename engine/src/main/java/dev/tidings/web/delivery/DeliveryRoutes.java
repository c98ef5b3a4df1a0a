package dev.tidings.web.delivery;

import dev.tidings.delivery.CampaignStats;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.webserver.http.HttpRouting;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /api/v1/campaigns/{id}/stats}: the funnel, current statuses, rates, clicks per slot and
 * the funnel per minute over the last {@code minutes} (default 60, at most a week);
 * {@code GET /api/v1/messages/{id}}: one message's status and the steps it went through.
 */
public final class DeliveryRoutes implements RouteGroup {
  private static final int DEFAULT_MINUTES = 60;
  private static final int MAX_MINUTES = 7 * 24 * 60;

  private final DeliveryStats stats;
  private final InstantSource clock;

  public DeliveryRoutes(DeliveryStats stats, InstantSource clock) {
    this.stats = stats;
    this.clock = clock;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/api/v1/campaigns/{id}/stats", (request, response) -> {
      long campaign = campaignId(Requests.path(request, "id"));
      int minutes = minutes(Requests.query(request, "minutes").orElse(""));
      CampaignStats figures =
          stats.campaign(campaign, clock.instant().minus(Duration.ofMinutes(minutes)));
      JsonBodies.ok(response, json(figures));
    });
    routing.get("/api/v1/messages/{id}", (request, response) -> {
      String id = Requests.path(request, "id");
      var history = stats
          .message(id)
          .orElseThrow(() -> ApiProblem.notFound("no receipt has named message " + id + " yet"));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("messageId", history.messageId());
      body.put("status", history.status().wire());
      body.put("statusAt", history.statusAt().toString());
      body.put(
          "steps",
          history.steps().stream()
              .map(step -> {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("step", wire(step.step()));
                row.put("at", step.at().toString());
                row.put("source", step.source().toLowerCase(Locale.ROOT));
                step.reason().ifPresent(reason -> row.put("reason", reason));
                return row;
              })
              .toList());
      JsonBodies.ok(response, body);
    });
  }

  private static long campaignId(String text) {
    return Requests.campaignId(text);
  }

  private static int minutes(String text) {
    if (text.isEmpty()) return DEFAULT_MINUTES;
    try {
      int minutes = Integer.parseInt(text);
      if (minutes >= 1 && minutes <= MAX_MINUTES) return minutes;
    } catch (NumberFormatException notANumber) {
      // answered below
    }
    throw ApiProblem.badRequest(
        "minutes must be a whole number from 1 to " + MAX_MINUTES + ", got '" + text + "'");
  }

  private static Map<String, Object> json(CampaignStats figures) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("campaignId", figures.campaignId());
    Map<String, Long> funnel = new LinkedHashMap<>();
    for (FunnelStep step : FunnelStep.values()) funnel.put(wire(step), figures.count(step));
    body.put("funnel", funnel);
    Map<String, Long> current = new LinkedHashMap<>();
    figures.current().forEach((status, count) -> current.put(status.wire(), count));
    body.put("current", current);
    body.put("rates", figures.rates());
    Map<String, Long> slots = new LinkedHashMap<>();
    figures.slotClicks().forEach((slot, count) -> slots.put(Integer.toString(slot), count));
    body.put("slotClicks", slots);
    List<Map<String, Object>> minutes = figures.minutes().stream()
        .map(minute -> {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("minute", minute.minute().toString());
          minute.steps().forEach((step, count) -> row.put(wire(step), count));
          return row;
        })
        .toList();
    body.put("minutes", minutes);
    return body;
  }

  private static String wire(FunnelStep step) {
    return step.wire();
  }
}
