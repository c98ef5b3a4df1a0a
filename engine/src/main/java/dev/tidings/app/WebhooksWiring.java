package dev.tidings.app;

import dev.tidings.events.EventListener;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.webhooks.WebhookRoutes;
import dev.tidings.webhooks.WebhookDeadLetters;
import dev.tidings.webhooks.WebhookEndpoints;
import dev.tidings.webhooks.WebhookFanOut;
import dev.tidings.webhooks.WebhookMetrics;
import dev.tidings.webhooks.WebhookSender;
import dev.tidings.webhooks.WebhookUrls;
import java.util.List;

/**
 * Outgoing webhooks: the endpoints' API on serving nodes, the fan-out from the event relay and the
 * senders on consuming nodes, every POST through a guarded fetcher of its own under the node's fetch
 * allowance.
 */
public final class WebhooksWiring implements Capability {
  private final Infrastructure infrastructure;
  private final WebhookSender.Options options;
  private final Lazy<WebhookEndpoints> endpoints;
  private final Lazy<WebhookDeadLetters> deadLetters;
  private final Lazy<WebhookMetrics> metrics;
  private final Lazy<GuardedFetcher> fetcher;

  WebhooksWiring(Infrastructure infrastructure, WebhookSender.Options options) {
    this.infrastructure = infrastructure;
    this.options = options;
    this.endpoints = Lazy.of(() -> new WebhookEndpoints(
        infrastructure.database().jdbi(),
        new WebhookUrls(infrastructure.settings().fetchAllow()),
        infrastructure.clock()));
    this.deadLetters = Lazy.of(() -> new WebhookDeadLetters(
        infrastructure.database().jdbi(), infrastructure.workQueue(), infrastructure.clock()));
    this.metrics = Lazy.of(() -> {
      var meters = new WebhookMetrics(infrastructure.metrics());
      meters.deadLetters(() -> deadLetters.get().count());
      return meters;
    });
    this.fetcher = Lazy.of(() -> new GuardedFetcher(
        infrastructure.settings().fetchAllow(), WebhookSender.LIMITS, infrastructure.metrics()));
  }

  public WebhookEndpoints endpoints() {
    return endpoints.get();
  }

  public WebhookDeadLetters deadLetters() {
    return deadLetters.get();
  }

  @Override
  public List<RouteGroup> routes() {
    metrics.get();
    return List.of(
        new WebhookRoutes(endpoints(), deadLetters(), infrastructure.settings().maxBodyBytes()));
  }

  @Override
  public List<EventListener> eventListeners() {
    return List.of(new WebhookFanOut(endpoints(), infrastructure.workQueue()));
  }

  @Override
  public List<ConsumerGroup> consumers() {
    return List.of(new WebhookSender(
            endpoints(),
            deadLetters(),
            infrastructure.workQueue(),
            fetcher.get(),
            options,
            infrastructure.clock(),
            metrics.get())
        .consumers());
  }

  @Override
  public void close() {
    fetcher.ifBuilt().ifPresent(GuardedFetcher::close);
  }
}
