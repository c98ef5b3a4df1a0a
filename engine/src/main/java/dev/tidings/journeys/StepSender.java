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

  /** What the ledger says of a run's emails so far; empty for a run it does not know. */
  Optional<Outcomes> outcomes(long campaignId, long runId);

  /** A run's emails by what became of them; {@code unknown}: handed over by a worker that died. */
  record Outcomes(long planned, long sent, long failed, long unknown, long skipped) {
    public static final Outcomes NONE = new Outcomes(0, 0, 0, 0, 0);

    public Outcomes plus(Outcomes other) {
      return new Outcomes(
          planned + other.planned,
          sent + other.sent,
          failed + other.failed,
          unknown + other.unknown,
          skipped + other.skipped);
    }
  }
}
