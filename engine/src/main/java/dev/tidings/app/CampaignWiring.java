package dev.tidings.app;

import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignScheduler;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.DigestSource;
import dev.tidings.campaign.EntryContext;
import dev.tidings.campaign.ExperimentLedger;
import dev.tidings.campaign.TemplateProducts;
import dev.tidings.campaign.Unsubscribes;
import dev.tidings.campaign.editor.CampaignPreviews;
import dev.tidings.campaign.editor.CampaignTemplateLibrary;
import dev.tidings.campaign.editor.SlotPreviews;
import dev.tidings.campaign.editor.TestSends;
import dev.tidings.campaign.send.Sends;
import dev.tidings.delivery.SendTimeOutcomes;
import dev.tidings.events.EventListener;
import dev.tidings.jobs.BackgroundJobs;
import dev.tidings.message.TokenCodec;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.sendtime.OpenHours;
import dev.tidings.sendtime.OpenHoursListener;
import dev.tidings.sendtime.SendTimeMetrics;
import dev.tidings.sendtime.SendTimePlans;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.campaign.CampaignEditorRoutes;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import dev.tidings.web.campaign.UnsubscribeRoutes;
import dev.tidings.web.optimize.ExperimentRoutes;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Campaigns on the node's database: definitions, the audience query, the composer the send pipeline
 * calls for each email, the unsubscribe page, and the scheduler that starts due campaigns (on nodes
 * that serve HTTP), and the experiment routes that report and roll out campaigns' experiments.
 */
public final class CampaignWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<CampaignEmails> emails;
  private final Lazy<Sends> sends;
  private final Lazy<CampaignService> campaigns;
  private final Lazy<Unsubscribes> unsubscribes;
  private final Supplier<CampaignHeadlines> headlines;
  private final Supplier<CampaignExperiments> experiments;
  private final Lazy<CampaignTemplateLibrary> templates = Lazy.of(CampaignTemplateLibrary::new);
  private final Lazy<CampaignPreviews> previews;
  private final Lazy<TestSends> testSends;
  private BackgroundJobs.@Nullable Running scheduler;

  /**
   * {@code emails}: what {@link #emails} builds; {@code sends}: the send pipeline's runs, from the
   * sending capability; {@code headlines}: each listed campaign's delivery headline, from the delivery
   * capability; {@code experiments}: campaigns' experiments, from the optimize capability; {@code
   * slots}: what an email's slots would show, for previews, from the open-time capability.
   */
  CampaignWiring(
      Infrastructure infrastructure,
      Lazy<CampaignEmails> emails,
      Supplier<Sends> sends,
      Supplier<CampaignHeadlines> headlines,
      Supplier<CampaignExperiments> experiments,
      Supplier<SlotPreviews> slots) {
    this.infrastructure = infrastructure;
    this.headlines = headlines;
    this.experiments = experiments;
    this.emails = emails;
    this.sends = Lazy.of(sends::get);
    this.campaigns = Lazy.of(() -> {
      var jdbi = infrastructure.database().jdbi();
      return new CampaignService(
          jdbi,
          sends.get(),
          new AudienceQuery(jdbi, infrastructure.clock()),
          infrastructure.clock(),
          new SendTimePlans(new OpenHours(jdbi), new SendTimeMetrics(infrastructure.metrics())));
    });
    this.previews = Lazy.of(() ->
        new CampaignPreviews(campaigns.get(), emails.get(), slots.get(), infrastructure.clock()));
    this.testSends = Lazy.of(() -> new TestSends(
        campaigns.get(),
        emails.get(),
        new SubscriberService(infrastructure.database().jdbi(), infrastructure.clock()),
        infrastructure.mail(),
        infrastructure.coordination().rateLimiter(),
        infrastructure.settings().testSendsPerMinute(),
        infrastructure.metrics()));
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

  /**
   * The composer the send pipeline calls for each email, built when first asked: {@code digests}, what
   * digest campaigns tell (notify); {@code experiments}, the record of variants sent (optimize).
   */
  static Lazy<CampaignEmails> emails(
      Infrastructure infrastructure,
      Supplier<DigestSource> digests,
      Supplier<ExperimentLedger> experiments,
      Supplier<TemplateProducts> templateProducts,
      Supplier<EntryContext> entries) {
    return Lazy.of(() -> {
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
          templateProducts.get(),
          entries.get(),
          clock,
          infrastructure.metrics());
    });
  }

  public CampaignService campaigns() {
    return campaigns.get();
  }

  /** What the send pipeline calls to write each email. */
  public CampaignEmails emails() {
    return emails.get();
  }

  /** The starter campaigns an editor offers. */
  public CampaignTemplateLibrary templates() {
    return templates.get();
  }

  /** One subscriber's email of a campaign as a send now would write it, with its slots' products. */
  public CampaignPreviews previews() {
    return previews.get();
  }

  /** Test sends of a campaign to a typed address, limited per node. */
  public TestSends testSends() {
    return testSends.get();
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
      scheduler = infrastructure
          .jobs()
          .start(new CampaignScheduler(
                  infrastructure.database().jdbi(),
                  campaigns(),
                  infrastructure.clock(),
                  CampaignScheduler.DEFAULT_POLL,
                  infrastructure.metrics())
              .job());
    return List.of(
        new CampaignRoutes(
            campaigns(),
            infrastructure.settings().maxBodyBytes(),
            headlines.get(),
            previews(),
            new SendTimeOutcomes(infrastructure.database().jdbi())::of),
        new CampaignEditorRoutes(
            campaigns(), templates(), testSends(), infrastructure.settings().maxBodyBytes()),
        new UnsubscribeRoutes(unsubscribes.get()),
        new ExperimentRoutes(campaigns(), experiments.get(), OptimizeExperiments::plan));
  }

  @Override
  public synchronized void close() {
    if (scheduler != null) scheduler.close();
  }

  /** The send-time plans learn the open hours from the funnel's first human opens. */
  @Override
  public List<EventListener> eventListeners() {
    return List.of(new OpenHoursListener(infrastructure.database().jdbi()));
  }
}
