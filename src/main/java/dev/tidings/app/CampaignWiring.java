package dev.tidings.app;

import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignScheduler;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.DigestSource;
import dev.tidings.campaign.ExperimentLedger;
import dev.tidings.campaign.Unsubscribes;
import dev.tidings.campaign.send.Composer;
import dev.tidings.campaign.send.Sends;
import dev.tidings.message.TokenCodec;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import dev.tidings.web.campaign.UnsubscribeRoutes;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Campaigns on the node's database: definitions, the audience query, the composer the send pipeline
 * calls for each email, the unsubscribe page, and the scheduler that starts due campaigns (on nodes
 * that serve HTTP). The send pipeline itself comes in through {@link SendsFactory}.
 */
public final class CampaignWiring implements Capability {
  /** Builds the send pipeline of a node, handed the composer that writes each email. */
  @FunctionalInterface
  public interface SendsFactory {
    Sends create(Infrastructure infrastructure, Composer composer);
  }

  private final Infrastructure infrastructure;
  private final Lazy<CampaignEmails> emails;
  private final Lazy<Sends> sends;
  private final Lazy<CampaignService> campaigns;
  private final Lazy<Unsubscribes> unsubscribes;
  private final Supplier<CampaignHeadlines> headlines;
  private @Nullable CampaignScheduler scheduler;

  /**
   * {@code headlines}: each listed campaign's delivery headline, from the delivery capability;
   * {@code digests}: what digest campaigns tell, from the notify capability; {@code experiments}: the
   * record of variants sent and their results, from the optimize capability.
   */
  CampaignWiring(
      Infrastructure infrastructure,
      SendsFactory sendsFactory,
      Supplier<CampaignHeadlines> headlines,
      Supplier<DigestSource> digests,
      Supplier<ExperimentLedger> experiments) {
    this.infrastructure = infrastructure;
    this.headlines = headlines;
    this.emails = Lazy.of(() -> {
      var jdbi = infrastructure.database().jdbi();
      var clock = infrastructure.clock();
      return new CampaignEmails(
          jdbi,
          new SubscriberService(jdbi, clock),
          new SuppressionService(jdbi, clock),
          new CampaignRenderer(
              infrastructure.settings().publicUrl(), TokenCodec.of(infrastructure.secret()), clock),
          digests.get(),
          experiments.get(),
          clock,
          infrastructure.metrics());
    });
    this.sends = Lazy.of(() -> sendsFactory.create(infrastructure, emails.get()));
    this.campaigns = Lazy.of(() -> {
      var jdbi = infrastructure.database().jdbi();
      return new CampaignService(
          jdbi,
          sends.get(),
          new AudienceQuery(jdbi, infrastructure.clock()),
          infrastructure.clock());
    });
    this.unsubscribes = Lazy.of(() -> {
      var jdbi = infrastructure.database().jdbi();
      var clock = infrastructure.clock();
      return new Unsubscribes(
          TokenCodec.of(infrastructure.secret()),
          new SubscriberService(jdbi, clock),
          new SuppressionService(jdbi, clock),
          sends.get(),
          clock);
    });
  }

  public CampaignService campaigns() {
    return campaigns.get();
  }

  /** What the send pipeline calls to write each email. */
  public CampaignEmails emails() {
    return emails.get();
  }

  public Sends sends() {
    return sends.get();
  }

  /**
   * Asked only by nodes that serve HTTP, which are also the nodes that start scheduled campaigns: the
   * scheduler starts here so that a worker-only node never claims a campaign.
   */
  @Override
  public synchronized List<RouteGroup> routes() {
    if (scheduler == null)
      scheduler = CampaignScheduler.start(
          infrastructure.database().jdbi(),
          campaigns(),
          infrastructure.clock(),
          CampaignScheduler.DEFAULT_POLL);
    return List.of(
        new CampaignRoutes(
            campaigns(), emails(), infrastructure.settings().maxBodyBytes(), headlines.get()),
        new UnsubscribeRoutes(unsubscribes.get()));
  }

  @Override
  public synchronized void close() {
    if (scheduler != null) scheduler.close();
    sends.ifBuilt().ifPresent(built -> {
      if (built instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          throw new IllegalStateException("closing the send pipeline failed", e);
        }
      }
    });
  }
}
