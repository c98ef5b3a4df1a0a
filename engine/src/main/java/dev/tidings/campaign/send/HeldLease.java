package dev.tidings.campaign.send;

import dev.tidings.coordination.Countdown;
import java.time.Duration;

/**
 * A worker's lease on one partition as the worker itself sees it. The lease counts as lost a fifth
 * of its TTL before the countdown would let another worker take it, measured on this process's
 * monotonic clock from before the claim or renewal was sent: a worker that was stopped (GC, SIGSTOP,
 * a frozen VM) past that point sends nothing more, whatever it was doing when it stopped.
 */
final class HeldLease {
  private final Countdown countdown;
  private final Countdown.Lease lease;
  private final Duration ttl;
  private final long safeNanos;
  private volatile long validUntilNanos;
  private volatile long renewedAtNanos;
  private volatile boolean lost;
  private volatile boolean refused;

  HeldLease(Countdown countdown, Countdown.Lease lease, Duration ttl, long claimedAtNanos) {
    this.countdown = countdown;
    this.lease = lease;
    this.ttl = ttl;
    this.safeNanos = ttl.toNanos() - ttl.toNanos() / 5;
    this.renewedAtNanos = claimedAtNanos;
    this.validUntilNanos = claimedAtNanos + safeNanos;
  }

  Countdown.Lease lease() {
    return lease;
  }

  long fence() {
    return lease.fence();
  }

  /** Whether this worker may still send under the lease. */
  boolean valid() {
    return !lost && System.nanoTime() < validUntilNanos;
  }

  /** Renews the lease (the worker made progress); false once it is lost. */
  boolean renew() {
    if (!valid()) {
      lost = true;
      return false;
    }
    long before = System.nanoTime();
    if (!countdown.renew(lease, ttl)) {
      lost = true;
      refused = true;
      return false;
    }
    renewedAtNanos = before;
    validUntilNanos = before + safeNanos;
    return true;
  }

  /** Whether the countdown refused a renewal: another worker had taken the partition over. */
  boolean refused() {
    return refused;
  }

  /** Renews when a third of the TTL passed since the last renewal; false once the lease is lost. */
  boolean keepAlive() {
    if (System.nanoTime() - renewedAtNanos < ttl.toNanos() / 3) return valid();
    return renew();
  }
}
