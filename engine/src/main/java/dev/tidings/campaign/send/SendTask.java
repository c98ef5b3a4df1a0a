package dev.tidings.campaign.send;

import org.jspecify.annotations.Nullable;

/**
 * One message on the send queue: a partition of a run, or (with {@code subscriberId}) one triggered
 * send. Carries the job, so a worker needs nothing else to start on it.
 */
public record SendTask(
    long campaignId,
    long runId,
    int partition,
    @Nullable String subscriberId,
    int priority,
    double ratePerSecond) {

  static SendTask partition(SendJob job, int partition) {
    return new SendTask(
        job.campaignId(), job.runId(), partition, null, job.priority(), job.ratePerSecond());
  }

  static SendTask triggered(SendJob job, String subscriberId) {
    return new SendTask(
        job.campaignId(), job.runId(), -1, subscriberId, job.priority(), job.ratePerSecond());
  }

  SendJob job() {
    return new SendJob(campaignId, runId, priority, ratePerSecond);
  }
}
