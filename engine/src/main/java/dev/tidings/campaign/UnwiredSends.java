package dev.tidings.campaign;

import dev.tidings.ErrorKind;
import dev.tidings.campaign.send.PlannedSend;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.campaign.send.SendReceipt;
import dev.tidings.campaign.send.Sends;
import java.util.Iterator;
import java.util.Optional;

/**
 * The {@link Sends} of a build without a send pipeline: definitions, previews and unsubscribes work,
 * starting a run is refused with a message that says why, and no run is ever known.
 */
public final class UnwiredSends implements Sends {
  static CampaignProblem missing() {
    return new CampaignProblem(
        ErrorKind.UNAVAILABLE, "this node has no send pipeline wired in, so it cannot send");
  }

  @Override
  public SendProgress start(SendJob job, Iterator<String> recipients) {
    throw missing();
  }

  @Override
  public SendProgress startPlanned(SendJob job, Iterator<PlannedSend> recipients) {
    throw missing();
  }

  @Override
  public void trigger(SendJob job, String subscriberId) {
    throw missing();
  }

  @Override
  public Optional<SendProgress> progress(long campaignId, long runId) {
    return Optional.empty();
  }

  @Override
  public void pause(long campaignId, long runId) {
    throw missing();
  }

  @Override
  public void resume(long campaignId, long runId) {
    throw missing();
  }

  @Override
  public void cancel(long campaignId, long runId) {
    throw missing();
  }

  /** Nothing consumes receipts without a pipeline: the suppression list alone records it. */
  @Override
  public void report(SendReceipt receipt) {}
}
