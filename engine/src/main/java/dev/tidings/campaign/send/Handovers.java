package dev.tidings.campaign.send;

import dev.tidings.mail.Handover;
import dev.tidings.storage.BatchedLookup;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The ledger's record of each recipient's handover to the transport, written before the point after
 * which the email may have been delivered. Every email pays one durable write there, so the writes of
 * concurrent senders share statements: a handover joins the next batch while one is being written.
 * Thread-safe.
 */
final class Handovers {
  private static final int MAX_BATCH = 500;
  private static final int MAX_IN_FLIGHT = 2;

  private final BatchedLookup<Ledger.Claim, Boolean> writes;

  Handovers(Ledger ledger) {
    this.writes = new BatchedLookup<>(
        "send handovers", claims -> held(ledger.handOver(claims)), MAX_BATCH, MAX_IN_FLIGHT);
  }

  /** The handover of one claimed recipient: it proceeds only while the claim is still held. */
  Handover of(SendJob job, String subscriberId, long fence) {
    var claim = new Ledger.Claim(job.campaignId(), job.runId(), subscriberId, fence);
    return () -> writes.get(claim).isPresent();
  }

  private static Map<Ledger.Claim, Boolean> held(Set<Ledger.Claim> claims) {
    var held = new HashMap<Ledger.Claim, Boolean>(claims.size() * 2);
    for (Ledger.Claim claim : claims) held.put(claim, true);
    return held;
  }
}
