package dev.tidings.campaign.send;

/**
 * One run of one campaign: what the pipeline needs to plan, order and pace it. {@code priority} is the
 * work queue's (0 lowest .. 9 highest; triggered sends use {@link #TRIGGERED_PRIORITY}); {@code
 * ratePerSecond} is shared by every worker sending this run.
 */
public record SendJob(long campaignId, long runId, int priority, double ratePerSecond) {
  public static final int TRIGGERED_PRIORITY = 9;

  public SendJob {
    if (campaignId < 1) throw new IllegalArgumentException("campaignId must be >= 1");
    if (runId < 1) throw new IllegalArgumentException("runId must be >= 1");
    if (priority < 0 || priority > 9)
      throw new IllegalArgumentException("priority must be within 0..9 but was " + priority);
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond))
      throw new IllegalArgumentException("ratePerSecond must be positive and finite");
  }
}
