package dev.tidings.coordination;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * A countdown semaphore over the parts of one job (seed 05: a campaign's partitions). It starts at the
 * number of parts; each part finished by its current lease holder counts down exactly once; zero means
 * the job is done.
 *
 * <p>Parts are worked under leases. A lease that sees no {@link #renew} within its TTL is presumed
 * stuck; another worker may then {@link #claim} the part, which raises the part's fencing token, so
 * the stale worker's later {@link #renew} or {@link #finish} is refused and cannot count down twice.
 *
 * <p>Thread-safe; one instance serves a whole node.
 */
public interface Countdown {

  /**
   * Creates countdown {@code name} over {@code parts} parts (numbered 0..parts-1) unless it already
   * exists, so that many nodes may race to start the same job. Returns true if this call created it,
   * and again for a repeat by the same {@code starter} (a token the caller keeps across its retries,
   * such as the id of the campaign run): a start whose reply was lost, or that the client re-sent
   * after a reconnect, still tells its caller that it is the one that created the job, and changes
   * nothing. The countdown and its leases are forgotten {@code retention} after the last change.
   *
   * <p>Fences never go back, even across a countdown that was forgotten (or whose backend lost it)
   * and started again under the same name: a lease from the earlier run never matches a part of the
   * later one.
   */
  boolean start(String name, int parts, String starter, Duration retention);

  /** A start by a starter of its own, for a caller that never retries one. */
  default boolean start(String name, int parts, Duration retention) {
    return start(name, parts, UUID.randomUUID().toString(), retention);
  }

  /**
   * Takes a lease on {@code part}: a part never claimed, or one whose lease expired. Empty when the
   * part is done, is held by another holder's live lease, or the countdown does not exist.
   *
   * <p>Idempotent for {@code holder} (a token the caller keeps across its retries, such as the id of
   * the message that carries the work): a claim repeated while the holder's lease is live answers the
   * same lease, with its TTL extended, instead of refusing the caller its own part.
   */
  Optional<Lease> claim(String name, int part, String holder, Duration leaseTtl);

  /** A claim by a holder of its own, for a caller that never retries one. */
  default Optional<Lease> claim(String name, int part, Duration leaseTtl) {
    return claim(name, part, UUID.randomUUID().toString(), leaseTtl);
  }

  /** Extends a live lease (the holder made progress). False when the lease was lost. */
  boolean renew(Lease lease, Duration leaseTtl);

  /**
   * Marks the lease's part done and counts down, once per part and only for its current holder.
   * Idempotent for that holder: a finish repeated with the same lease (a retry after a lost reply, a
   * redelivered message) counts nothing and answers what the first one answered, so the caller that
   * took the part to zero still learns that the job is done.
   */
  Finish finish(Lease lease);

  /** Parts that were claimed and not finished whose lease has expired: candidates for takeover. */
  List<Integer> stuck(String name);

  /** Parts not yet finished; empty when the countdown does not exist (never started or expired). */
  OptionalLong remaining(String name);

  /**
   * A worker's hold on one part. {@code fence} grows with every claim of the part, also across runs of
   * the same countdown name.
   */
  record Lease(String name, int part, long fence) {}

  sealed interface Finish {
    /** The part is done; {@code remaining} parts are left (0: the whole job is done). */
    record Done(long remaining) implements Finish {}

    /**
     * Nothing counted down: the lease was taken over, another lease finished the part, or the countdown
     * is gone.
     */
    record Refused(String reason) implements Finish {}
  }
}
