package dev.tidings.campaign;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts scheduled campaigns when they are due. Every serve node polls; the claim is one conditional
 * update in PostgreSQL (SCHEDULED and due, to RUNNING with a new run id, skipping rows another node
 * holds), so each campaign starts on exactly one node. A node that dies after its claim leaves a RUNNING
 * campaign whose run the pipeline does not know; {@code send} starts that same run again.
 */
public final class CampaignScheduler implements AutoCloseable {
  public static final Duration DEFAULT_POLL = Duration.ofSeconds(5);
  public static final String ACTIONS = "tidings_campaign_scheduler_actions";
  private static final Logger log = LoggerFactory.getLogger(CampaignScheduler.class);
  private static final int CLAIM_LIMIT = 10;

  private final Jdbi jdbi;
  private final CampaignService campaigns;
  private final InstantSource clock;
  private final @Nullable ScheduledExecutorService timer;
  private final Counter started;
  private final Counter notStarted;
  private final Counter pollsFailed;

  private CampaignScheduler(
      Jdbi jdbi,
      CampaignService campaigns,
      InstantSource clock,
      Duration poll,
      boolean start,
      MeterRegistry metrics) {
    this.started = action(metrics, "started");
    this.notStarted = action(metrics, "start_failed");
    this.pollsFailed = action(metrics, "poll_failed");
    this.jdbi = jdbi;
    this.campaigns = campaigns;
    this.clock = clock;
    if (start) {
      var polling = Executors.newSingleThreadScheduledExecutor(
          Thread.ofVirtual().name("campaign-scheduler").factory());
      polling.scheduleWithFixedDelay(
          this::pollQuietly, poll.toMillis(), poll.toMillis(), TimeUnit.MILLISECONDS);
      this.timer = polling;
    } else {
      this.timer = null;
    }
  }

  /**
   * Polls every {@code poll} until closed, counting in {@code tidings_campaign_scheduler_actions_total
   * {action}}: scheduled campaigns started, claimed but not started, and polls that failed.
   */
  public static CampaignScheduler start(
      Jdbi jdbi,
      CampaignService campaigns,
      InstantSource clock,
      Duration poll,
      MeterRegistry metrics) {
    return new CampaignScheduler(jdbi, campaigns, clock, poll, true, metrics);
  }

  /** One that polls only when {@link #poll} is called (tests, commands). */
  public static CampaignScheduler manual(
      Jdbi jdbi, CampaignService campaigns, InstantSource clock) {
    return new CampaignScheduler(
        jdbi, campaigns, clock, DEFAULT_POLL, false, new SimpleMeterRegistry());
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

  private void pollQuietly() {
    try {
      poll();
    } catch (RuntimeException e) {
      pollsFailed.increment();
      log.warn("polling for scheduled campaigns failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    if (timer != null) timer.shutdownNow();
  }
}
