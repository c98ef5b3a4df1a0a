package dev.tidings.app;

import dev.tidings.campaign.send.SendOptions;
import dev.tidings.campaign.send.SendTopics;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.EngagementReceipts;
import dev.tidings.delivery.MessageExpiry;
import dev.tidings.delivery.ParkedReceiptExpiry;
import dev.tidings.delivery.ReceiptConsumer;
import dev.tidings.delivery.ReceiptQueue;
import dev.tidings.delivery.ReceiptSink;
import dev.tidings.delivery.ReceiptStore;
import dev.tidings.delivery.SendOutcomeReceipts;
import dev.tidings.events.EventOutbox;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.opentime.EngagementRecorder;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.retention.Expiring;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.delivery.DeliveryRoutes;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Delivery receipts: the sink the edges hand receipts to (the work queue), the consumers that apply
 * them (receipts from the queue, the sender's outcomes, opens and clicks from the open-time
 * capability) and the statistics
 * routes.
 */
public final class DeliveryWiring implements Capability {
  /** Queue messages applied in one transaction; each holds up to a thousand receipts. */
  public static final int MESSAGES_PER_TRANSACTION = 8;

  private static final int ENGAGEMENT_MESSAGES_PER_TRANSACTION = 4;
  private static final int CONSUMERS = 2;
  private static final int SEND_OUTCOMES_PER_TRANSACTION = 500;

  private final Infrastructure infrastructure;
  private final Lazy<ReceiptStore> store;
  private final Lazy<ReceiptQueue> sink;
  private BackgroundJobs.@Nullable Running expiry;

  DeliveryWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.store = Lazy.of(() -> new ReceiptStore(
        infrastructure.database().jdbi(),
        infrastructure.clock(),
        EventOutbox.ON,
        infrastructure.metrics()));
    this.sink = Lazy.of(() -> new ReceiptQueue(infrastructure.workQueue()));
  }

  /** Where webhooks, the sender and unsubscribes hand receipts. */
  public ReceiptSink sink() {
    return sink.get();
  }

  public ReceiptStore store() {
    return store.get();
  }

  /** The campaigns list's headlines, read from the funnel in one statement per page. */
  public CampaignHeadlines campaignHeadlines() {
    return new DeliveryHeadlines(new DeliveryStats(infrastructure.database().jdbi()));
  }

  @Override
  public List<Expiring> expiring() {
    return List.of(new Expiring(
        new MessageExpiry(infrastructure.database().jdbi()),
        infrastructure.settings().retention().messages()));
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new DeliveryRoutes(
        new DeliveryStats(infrastructure.database().jdbi()), infrastructure.clock()));
  }

  @Override
  public List<ConsumerGroup> consumers() {
    return List.of(consumers -> {
      // worker nodes, where the receipts are applied, also drop those that waited too long
      synchronized (this) {
        if (expiry == null)
          expiry = infrastructure
              .jobs()
              .start(new ParkedReceiptExpiry(
                      store.get(),
                      infrastructure.settings().parkedReceiptRetention(),
                      infrastructure.clock(),
                      infrastructure.metrics())
                  .job());
      }
      consumers.consumeBatches(
          ReceiptQueue.TOPIC,
          CONSUMERS,
          MESSAGES_PER_TRANSACTION,
          new ReceiptConsumer(store.get(), ReceiptConsumer.DEFAULT_HOLD, sink.get()::setAside));
      consumers.consumeBatches(
          SendTopics.receipts(
              SendOptions.fromEnvironment(infrastructure.settings().send())),
          1,
          SEND_OUTCOMES_PER_TRANSACTION,
          new SendOutcomeReceipts(store.get()));
      consumers.consumeBatches(
          EngagementRecorder.RECEIPTS_TOPIC,
          1,
          ENGAGEMENT_MESSAGES_PER_TRANSACTION,
          new EngagementReceipts(store.get()));
    });
  }

  @Override
  public synchronized void close() {
    if (expiry != null) expiry.close();
  }
}
