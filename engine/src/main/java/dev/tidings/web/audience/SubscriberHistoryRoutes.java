package dev.tidings.web.audience;

import dev.tidings.audience.SubscriberService;
import dev.tidings.delivery.FunnelStep;
import dev.tidings.history.SubscriberHistory;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Page;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /api/v1/subscribers/{id}/emails}: their last emails, newest first, each with its
 * campaign, the products it showed and what became of it; {@code GET
 * /api/v1/subscribers/{id}/activity}: their latest activity events. Both take {@code ?limit=}
 * (1-{@value #MAX_LIMIT}, default {@value #DEFAULT_LIMIT}) and answer 404 for an unknown subscriber.
 */
public final class SubscriberHistoryRoutes implements RouteGroup {
  static final int DEFAULT_LIMIT = 20;
  static final int MAX_LIMIT = 200;

  private final SubscriberService subscribers;
  private final SubscriberHistory history;

  public SubscriberHistoryRoutes(SubscriberService subscribers, SubscriberHistory history) {
    this.subscribers = subscribers;
    this.history = history;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/api/v1/subscribers/{id}/emails", (request, response) -> {
      String id = known(request);
      var emails = history.emails(id, limit(request));
      JsonBodies.ok(
          response,
          new Page(emails.stream().map(SubscriberHistoryRoutes::json).toList(), Optional.empty()));
    });
    routing.get("/api/v1/subscribers/{id}/activity", (request, response) -> {
      String id = known(request);
      var events = history.activity(id, limit(request));
      JsonBodies.ok(
          response,
          new Page(
              events.stream()
                  .map(event -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("type", event.type().wire());
                    row.put("itemId", event.itemId());
                    row.put("occurredAt", event.occurredAt().toString());
                    return row;
                  })
                  .toList(),
              Optional.empty()));
    });
  }

  /** The subscriber the path names; 404 when there is none. */
  private String known(ServerRequest request) {
    String id = Requests.path(request, "id");
    if (subscribers.get(id).isEmpty()) throw ApiProblem.notFound("no subscriber with id " + id);
    return id;
  }

  private static Map<String, Object> json(SubscriberHistory.Email email) {
    var message = email.message();
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("messageId", message.messageId());
    row.put("campaignId", message.campaignId());
    email.campaignName().ifPresent(name -> row.put("campaignName", name));
    message.sentAt().ifPresent(at -> row.put("sentAt", at.toString()));
    row.put("status", message.status().wire());
    row.put("statusAt", message.statusAt().toString());
    row.put("steps", email.story().stream().map(FunnelStep::wire).toList());
    row.put("productIds", email.productIds());
    email.productsChosenAt().ifPresent(at -> row.put("productsChosenAt", at.toString()));
    return row;
  }

  private static int limit(ServerRequest request) {
    var raw = Requests.query(request, "limit");
    if (raw.isEmpty()) return DEFAULT_LIMIT;
    try {
      int limit = Integer.parseInt(raw.get().strip());
      if (limit >= 1 && limit <= MAX_LIMIT) return limit;
    } catch (NumberFormatException notANumber) {
      // answered below
    }
    throw ApiProblem.badRequest("limit must be a whole number from 1 to " + MAX_LIMIT + ", got '"
        + (raw.get().length() > 40 ? raw.get().substring(0, 40) + "..." : raw.get()) + "'");
  }
}
