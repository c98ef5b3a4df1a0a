package dev.tidings.webhooks;

import dev.tidings.events.CloudEvent;
import dev.tidings.fetch.FetchPurpose;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.fetch.PostResult;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POSTs each queued delivery to its endpoint through the guarded fetcher (the endpoint's resolved
 * addresses checked on every attempt), signed with the endpoint's live secrets. A 2xx is delivered;
 * any other status, no answer in time or a refused address is a failure: the delivery is queued again
 * not before the schedule's next delay, or, after the last attempt, becomes a dead letter. A delivery
 * whose endpoint was deleted or disabled meanwhile is dropped.
 */
public final class WebhookSender {
  private static final Logger log = LoggerFactory.getLogger(WebhookSender.class);
  /** Below triggered work, above bulk: a shop's systems wait on these, no email does. */
  static final int PRIORITY = 4;

  /**
   * @param schedule the waits between attempts
   * @param consumers deliveries in flight at once on one node
   */
  public record Options(RetrySchedule schedule, int consumers) {
    public static final Options DEFAULT = new Options(RetrySchedule.DEFAULT, 8);

    public Options {
      if (consumers < 1) throw new IllegalArgumentException("consumers must be at least 1");
    }
  }

  /** What a POST may take: 5 s to connect, 15 s in all, 64 KiB of answer read, no redirect. */
  public static final GuardedFetcher.Limits LIMITS =
      new GuardedFetcher.Limits(Duration.ofSeconds(5), Duration.ofSeconds(15), 64 * 1024, 0);

  private final WebhookEndpoints endpoints;
  private final WebhookDeadLetters deadLetters;
  private final WorkQueue queue;
  private final GuardedFetcher fetcher;
  private final Options options;
  private final InstantSource clock;
  private final WebhookMetrics metrics;
  private final RandomGenerator random;

  public WebhookSender(
      WebhookEndpoints endpoints,
      WebhookDeadLetters deadLetters,
      WorkQueue queue,
      GuardedFetcher fetcher,
      Options options,
      InstantSource clock,
      WebhookMetrics metrics) {
    this.endpoints = endpoints;
    this.deadLetters = deadLetters;
    this.queue = queue;
    this.fetcher = fetcher;
    this.options = options;
    this.clock = clock;
    this.metrics = metrics;
    this.random = RandomGenerator.getDefault();
  }

  public ConsumerGroup consumers() {
    // one consumer holding them all: many deliveries claimed by one statement, not one each
    return consumers ->
        consumers.consume(WebhookDelivery.TOPIC, 1, options.consumers(), this::send);
  }

  /** One attempt of one delivery; the message is settled here whatever the endpoint answers. */
  Disposition send(Topic.Received<WebhookDelivery> received) {
    WebhookDelivery delivery = received.value();
    var target = endpoints.target(delivery.endpointId());
    if (target.isEmpty()) {
      log.info(
          "webhook endpoint {} is deleted or disabled: event {} not sent",
          delivery.endpointId(),
          delivery.eventId());
      return Disposition.ACK;
    }
    byte[] body = delivery.bytes();
    long timestamp = clock.instant().getEpochSecond();
    var headers = Map.of(
        "webhook-id", delivery.eventId(),
        "webhook-timestamp", Long.toString(timestamp),
        "webhook-signature",
            WebhookSignature.header(
                delivery.eventId(), timestamp, body, target.get().secrets()));
    long started = System.nanoTime();
    PostResult result = fetcher.post(
        target.get().url(), FetchPurpose.WEBHOOK, headers, body, CloudEvent.CONTENT_TYPE);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    if (result instanceof PostResult.Answered answered && answered.successful()) {
      endpoints.delivered(delivery.endpointId());
      metrics.delivered(took);
      return Disposition.ACK;
    }
    String error = result.describe();
    endpoints.failed(delivery.endpointId(), error);
    metrics.failed(delivery.endpointId(), took);
    var schedule = options.schedule();
    if (delivery.attempt() < schedule.attempts()) {
      var wait = schedule.after(delivery.attempt(), random);
      var retry = WebhookDelivery.TOPIC
          .message(delivery.next(), PRIORITY)
          .notBefore(clock.instant().plus(wait));
      queue.publish(WebhookDelivery.TOPIC.name(), retry);
      log.debug(
          "webhook {} to {} failed ({}), attempt {} of {}, next in {}",
          delivery.eventId(),
          delivery.endpointId(),
          error,
          delivery.attempt(),
          schedule.attempts(),
          wait);
    } else {
      deadLetters.add(delivery, error);
      metrics.dead();
      log.warn(
          "webhook {} to {} failed its last attempt ({}): a dead letter now",
          delivery.eventId(),
          delivery.endpointId(),
          error);
    }
    return Disposition.ACK;
  }
}
