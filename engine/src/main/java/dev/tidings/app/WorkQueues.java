package dev.tidings.app;

import dev.tidings.campaign.send.SendOptions;
import dev.tidings.campaign.send.SendTopics;
import dev.tidings.delivery.ReceiptQueue;
import dev.tidings.opentime.EngagementRecorder;
import dev.tidings.queue.WorkQueue;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * The work queues the capabilities use, by name: what the System page lists and what {@code
 * tidings_queue_depth{queue}} reports, the messages waiting in each, read from the queue at each
 * scrape (NaN while it cannot be read), {@code tidings_queue_oldest_age_seconds{queue}}, how long
 * its oldest message has been there, and {@code tidings_queue_delayed_waiting{queue}}, its delayed
 * messages whose time has not come (NaN where the adapter cannot tell: on RabbitMQ they wait together
 * on the delay ladder, {@code tidings_queue_delay_ladder_waiting}).
 */
final class WorkQueues {
  static final String DEPTH = "tidings_queue_depth";
  static final String OLDEST_AGE = "tidings_queue_oldest_age";
  static final String DELAYED_WAITING = "tidings_queue_delayed_waiting";

  private WorkQueues() {}

  static List<String> names(Infrastructure infrastructure) {
    var send = SendOptions.fromEnvironment(infrastructure.settings().send());
    return List.of(
        SendTopics.tasks(send).name(),
        SendTopics.receipts(send).name(),
        ReceiptQueue.TOPIC.name(),
        EngagementRecorder.TOPIC.name(),
        EngagementRecorder.RECEIPTS_TOPIC.name());
  }

  static void registerDepths(Infrastructure infrastructure, MeterRegistry registry) {
    WorkQueue queue = infrastructure.workQueue();
    for (String name : names(infrastructure)) {
      Gauge.builder(DEPTH, queue, q -> q.depth(name))
          .description("Messages waiting in a work queue")
          .tag("queue", name)
          .strongReference(true)
          .register(registry);
      Gauge.builder(
              OLDEST_AGE,
              queue,
              q -> q.oldestAge(name).map(age -> age.toMillis() / 1000.0).orElse(Double.NaN))
          .description("How long the oldest message of a work queue has been in it (NaN: this"
              + " node cannot tell; on RabbitMQ only consuming nodes can, as an upper bound)")
          .tag("queue", name)
          .baseUnit("seconds")
          .strongReference(true)
          .register(registry);
      Gauge.builder(DELAYED_WAITING, queue, q -> {
            var delayed = q.delayed(name);
            return delayed.isPresent() ? delayed.getAsLong() : Double.NaN;
          })
          .description("Delayed messages of a work queue waiting for their not-before (NaN: the"
              + " adapter cannot tell them apart by queue)")
          .tag("queue", name)
          .strongReference(true)
          .register(registry);
    }
  }
}
