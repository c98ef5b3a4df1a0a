package dev.tidings.jobs;

import dev.tidings.storage.AdvisoryLock;
import java.util.Objects;
import org.jdbi.v3.core.Jdbi;

/** Which nodes run a round of a job. */
public sealed interface Election {
  /**
   * Every node runs every round: the body's own writes make that safe (a claim by conditional update,
   * deletes that meet on the same rows), or the work is the node's own.
   */
  record EveryNode() implements Election {}

  /**
   * One node at a time: a round runs only on the node that takes the session advisory {@code lock}
   * without waiting, held on a connection of its own for the round; the others skip the round.
   */
  record AdvisoryLeader(Jdbi jdbi, AdvisoryLock lock) implements Election {
    public AdvisoryLeader {
      Objects.requireNonNull(jdbi, "jdbi");
      if (lock.form() != AdvisoryLock.Form.SINGLE)
        throw new IllegalArgumentException(lock + " is a key space, not one lock");
    }
  }

  /**
   * The body elects itself through the coordinator's compute-once under a key per period (so one
   * node's round covers the period on every node); the scheduler runs it on every node, and the body
   * answers {@link Round#ELSEWHERE} when another node's round covered it.
   */
  record ComputeOnce() implements Election {}

  static Election everyNode() {
    return new EveryNode();
  }

  static Election advisoryLeader(Jdbi jdbi, AdvisoryLock lock) {
    return new AdvisoryLeader(jdbi, lock);
  }

  static Election computeOnce() {
    return new ComputeOnce();
  }

  /** What one round came to, as its body tells it. */
  enum Round {
    /** The round did its work here. */
    RAN,
    /** Another node did this round's work. */
    ELSEWHERE
  }
}
