package dev.tidings.webhooks;

import dev.tidings.Json;
import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventListener;
import dev.tidings.queue.WorkQueue;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Hears every event and queues one delivery per enabled endpoint that chose its type. It keeps no
 * inbox: a batch delivered again queues its deliveries again, and receivers drop the second by its
 * {@code webhook-id}, as at least once asks of them anyway.
 */
public final class WebhookFanOut implements EventListener {
  public static final String NAME = "webhooks";

  private final WebhookEndpoints endpoints;
  private final WorkQueue queue;

  public WebhookFanOut(WebhookEndpoints endpoints, WorkQueue queue) {
    this.endpoints = endpoints;
    this.queue = queue;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<CloudEventType> types() {
    return EnumSet.allOf(CloudEventType.class);
  }

  @Override
  public void apply(List<ReceivedEvent> events) {
    var hearing = endpoints.enabled();
    if (hearing.isEmpty()) return;
    var deliveries = new ArrayList<WebhookDelivery>();
    for (ReceivedEvent received : events) {
      var envelope = received.envelope();
      String body = null;
      for (WebhookEndpoint endpoint : hearing) {
        if (!endpoint.hears(envelope.type())) continue;
        if (body == null) body = Json.MAPPER.writeValueAsString(envelope.json());
        deliveries.add(
            new WebhookDelivery(endpoint.id(), envelope.id(), envelope.type().typeName(), body, 1));
      }
    }
    if (!deliveries.isEmpty())
      WebhookDelivery.TOPIC.publishAll(queue, deliveries, WebhookSender.PRIORITY);
  }
}
