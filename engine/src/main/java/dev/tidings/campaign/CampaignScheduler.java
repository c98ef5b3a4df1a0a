package dev.tidings.campaign;

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
  private static final Logger log = LoggerFactory.getLogger(CampaignScheduler.class);
  private static final int CLAIM_LIMIT = 10;

  private final Jdbi jdbi;
  private final CampaignService campaigns;
  private final InstantSource clock;
  private final @Nullable ScheduledExecutorService timer;

  private CampaignScheduler(
      Jdbi jdbi, CampaignService campaigns, InstantSource clock, Duration poll, boolean start) {
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

  /** Polls every {@code poll} until closed. */
  public static CampaignScheduler start(
      Jdbi jdbi, CampaignService campaigns, InstantSource clock, Duration poll) {
    return new CampaignScheduler(jdbi, campaigns, clock, poll, true);
  }

  /** One that polls only when {@link #poll} is called (tests, commands). */
  public static CampaignScheduler manual(
      Jdbi jdbi, CampaignService campaigns, InstantSource clock) {
    return new CampaignScheduler(jdbi, campaigns, clock, DEFAULT_POLL, false);
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
      } catch (RuntimeException e) {
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
      log.warn("polling for scheduled campaigns failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    if (timer != null) timer.shutdownNow();
  }
}
