package dev.tidings.queue.postgres;

/**
 * One consumer's count of deliveries for {@link dev.tidings.queue.QueueSpec#oldestEvery()}: of every
 * {@code every} messages it takes, one is the oldest waiting. A claim of several messages takes as
 * many oldest ones as multiples of {@code every} it crosses, so the share holds across claims of any
 * size. Used by its consumer's thread only.
 */
final class OldestShare {
  private final int every;
  private long taken;

  OldestShare(int every) {
    this.every = every;
  }

  /** How many of the next {@code wanted} deliveries go to the oldest waiting messages. */
  int oldestOf(int wanted) {
    if (every == 0) return 0;
    return (int) ((taken + wanted) / every - taken / every);
  }

  void took(int count) {
    taken += count;
  }
}
