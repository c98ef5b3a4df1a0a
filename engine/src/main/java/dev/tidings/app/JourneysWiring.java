package dev.tidings.app;

import dev.tidings.Json;
import dev.tidings.TidingsException;
import dev.tidings.activity.ActivityHistory;
import dev.tidings.activity.EventType;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.EntryContext;
import dev.tidings.catalog.SubscriberPrices;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.events.EventListener;
import dev.tidings.jobs.BackgroundJobs.Running;
import dev.tidings.journeys.CampaignDrafts;
import dev.tidings.journeys.EntryItems;
import dev.tidings.journeys.JourneyFigures;
import dev.tidings.journeys.JourneyRuntime;
import dev.tidings.journeys.JourneyStore;
import dev.tidings.journeys.JourneyTemplates;
import dev.tidings.journeys.ReaderLimitsStore;
import dev.tidings.journeys.StepSender;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.sendtime.OpenHours;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.journeys.JourneyRoutes;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Journeys: their definitions and versions through the API, the listener that lets people in, the
 * consumer that moves them on worker nodes, and the sweep for anyone whose message was lost.
 */
public final class JourneysWiring implements Capability {
  /** Consumers of the people due, per worker node. */
  static final int STEPPERS = 4;

  private final Infrastructure infrastructure;
  private final Supplier<CampaignService> campaigns;
  private final StepSender steps;
  private final Lazy<JourneyStore> store;
  private final Lazy<ReaderLimitsStore> limits;
  private final Lazy<JourneyRuntime> runtime;
  private @Nullable Running sweep;
  private @Nullable Running lapsed;

  JourneysWiring(Infrastructure infrastructure, Supplier<CampaignService> campaigns) {
    this.infrastructure = infrastructure;
    this.campaigns = campaigns;
    var jdbi = infrastructure.database().jdbi();
    this.steps = new CampaignSteps(campaigns);
    this.store = Lazy.of(() -> new JourneyStore(jdbi, infrastructure.clock()));
    this.limits = Lazy.of(() -> new ReaderLimitsStore(jdbi));
    this.runtime = Lazy.of(() -> new JourneyRuntime(
        jdbi,
        store.get(),
        limits.get(),
        new JourneyPeople(
            new SubscriberService(jdbi, infrastructure.clock()),
            new AudienceQuery(jdbi, infrastructure.clock()),
            new OpenHours(jdbi),
            new DeliveryStats(jdbi)),
        steps,
        (activity, from, to, after, limit) -> new ActivityHistory(jdbi)
            .lastDoneWithin(EventType.ofWire(activity).orElseThrow(), from, to, after, limit),
        infrastructure.workQueue(),
        infrastructure.metrics(),
        infrastructure.clock(),
        STEPPERS));
  }

  /** The journeys and their versions. */
  public JourneyStore store() {
    return store.get();
  }

  /** Makes a ready-made journey's emails as draft campaigns to everyone. */
  public CampaignDrafts drafts() {
    return this::draft;
  }

  /** Tells this node's runtime that a journey's state or version changed. */
  public void changed() {
    runtime.get().refresh();
  }

  /**
   * A journey email's entry products as cards, for the campaigns' emails: built on its own, as the
   * emails are built before the journeys (which send through the campaigns).
   */
  static EntryContext cards(Infrastructure infrastructure, Supplier<SubscriberPrices> prices) {
    var jdbi = infrastructure.database().jdbi();
    var store = new JourneyStore(jdbi, infrastructure.clock());
    return new JourneyCards(
        new EntryItems(jdbi, id -> store.latest(id).map(saved -> saved.journey().trigger())),
        prices,
        infrastructure.clock());
  }

  /** A journey's live figures, for the dashboard's pages. */
  public JourneyFigures figures() {
    return new JourneyFigures(infrastructure.database().jdbi(), steps);
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new JourneyRoutes(
        store.get(),
        limits.get(),
        new JourneyFigures(infrastructure.database().jdbi(), steps),
        id -> campaigns.get().get(id).isPresent(),
        () -> runtime.get().refresh(),
        this::draft,
        infrastructure.settings().maxBodyBytes()));
  }

  /** A ready-made journey's email as a draft campaign to everyone, its content the shop's to edit. */
  private long draft(JourneyTemplates.Email email, String fromEmail, String fromName) {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put("name", email.name());
    ObjectNode from = json.putObject("from").put("email", fromEmail);
    if (!fromName.isBlank()) from.put("name", fromName);
    json.put("subject", email.subject());
    json.put("html", email.html());
    json.put("text", email.text());
    json.put("slots", email.slots());
    json.putObject("audience").put("type", "all");
    return campaigns.get().create(CampaignJson.fromJson(json)).id();
  }

  @Override
  public List<EventListener> eventListeners() {
    return List.of(runtime.get().entries());
  }

  @Override
  public List<ConsumerGroup> consumers() {
    return List.of(consumers -> {
      // worker nodes, where people move, also find the ones whose message was lost
      synchronized (this) {
        if (sweep == null) sweep = infrastructure.jobs().start(runtime.get().sweepJob());
        if (lapsed == null) lapsed = infrastructure.jobs().start(runtime.get().lapsedJob());
      }
      runtime.get().stepper().register(consumers);
    });
  }

  @Override
  public synchronized void close() {
    if (sweep != null) sweep.close();
    if (lapsed != null) lapsed.close();
    sweep = null;
    lapsed = null;
  }

  /** A step's email through the campaigns' ledger. */
  private record CampaignSteps(Supplier<CampaignService> campaigns) implements StepSender {
    @Override
    public Optional<Long> runFor(long campaignId, String key) {
      return campaigns.get().keyedRun(campaignId, key);
    }

    @Override
    public void send(long campaignId, long runId, String subscriberId) {
      try {
        campaigns.get().triggerIn(campaignId, runId, subscriberId);
      } catch (TidingsException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    }

    @Override
    public Optional<Outcomes> outcomes(long campaignId, long runId) {
      return campaigns
          .get()
          .runProgress(campaignId, runId)
          .map(run ->
              new Outcomes(run.planned(), run.sent(), run.failed(), run.unknown(), run.skipped()));
    }
  }
}
