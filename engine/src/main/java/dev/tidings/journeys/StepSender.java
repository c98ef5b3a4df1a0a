package dev.tidings.journeys;

import java.util.Optional;

/**
 * Sends a step's email through the campaigns' ledger, with a campaign's exactly-once guarantees: the
 * same (campaign, run, person) is sent once however often it is asked for.
 */
public interface StepSender {
  /** The campaign's run that {@code key} names, the same ever after; empty when it does not exist. */
  Optional<Long> runFor(long campaignId, String key);

  /**
   * Sends the campaign's content to the person in the run; an {@link IllegalStateException} when the
   * campaign no longer sends (cancelled or removed).
   */
  void send(long campaignId, long runId, String subscriberId);
}
