package dev.tidings.campaign;

import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.Election;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts scheduled campaigns when they are due. Every serve node polls; the claim is one conditional
 * update in PostgreSQL (SCHEDULED and due, to RUNNING with a new run id, skipping rows another node
 * holds), so each campaign starts on exactly one node. A node that dies after its claim leaves a RUNNING
 * campaign whose run the pipeline does not know; {@code send} starts that same run again.
 */
public final class CampaignScheduler {
  public static final Duration DEFAULT_POLL = Duration.ofSeconds(5);
  public static final String ACTIONS = "tidings_campaign_scheduler_actions";
  private static final Logger log = LoggerFactory.getLogger(CampaignScheduler.class);
  private static final int CLAIM_LIMIT = 10;

  private final Jdbi jdbi;
  private final CampaignService campaigns;
  private final InstantSource clock;
  private final Duration poll;
  private final Counter started;
  private final Counter notStarted;
  private final Counter pollsFailed;

  /**
   * Polls as its {@link #job() job} runs, counting in {@code tidings_campaign_scheduler_actions_total
   * {action}}: scheduled campaigns started, claimed but not started, and polls that failed.
   */
  public CampaignScheduler(
      Jdbi jdbi,
      CampaignService campaigns,
      InstantSource clock,
      Duration poll,
      MeterRegistry metrics) {
    this.started = action(metrics, "started");
    this.notStarted = action(metrics, "start_failed");
    this.pollsFailed = action(metrics, "poll_failed");
    this.jdbi = jdbi;
    this.campaigns = campaigns;
    this.clock = clock;
    this.poll = poll;
  }

  /**
   * Polls every {@code poll}, the first time one poll after the start. Every node that serves runs
   * it: the claim decides which node starts a campaign.
   */
  public BackgroundJob job() {
    return BackgroundJob.of(
        "campaign-scheduler", poll, poll, Election.everyNode(), this::pollCounted);
  }

  private static Counter action(MeterRegistry metrics, String action) {
    return Counter.builder(ACTIONS)
        .description("What the campaign scheduler did with due campaigns")
        .tag("action", action)
        .register(metrics);
  }

  /** Claims the due campaigns and starts each; returns those this call claimed. */
  public List<Campaign> poll() {
    // a node that cannot send leaves due campaigns to one that can, rather than stranding them
    if (!campaigns.canSend()) return List.of();
    List<Campaign> claimed =
        jdbi.withHandle(handle -> CampaignTable.claimDue(handle, clock.instant(), CLAIM_LIMIT));
    for (Campaign campaign : claimed) {
      try {
        campaigns.start(campaign);
        started.increment();
      } catch (RuntimeException e) {
        notStarted.increment();
        log.warn(
            "scheduled campaign {} was claimed but its run did not start ({}); POST"
                + " /api/v1/campaigns/{}/send starts it again",
            campaign.id(),
            e.toString(),
            campaign.id());
      }
    }
    return claimed;
  }

  private void pollCounted() {
    try {
      poll();
    } catch (RuntimeException e) {
      pollsFailed.increment();
      throw e;
    }
  }
}
