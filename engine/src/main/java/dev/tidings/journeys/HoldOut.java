package dev.tidings.journeys;

import dev.tidings.StableShare;

/**
 * Who a journey holds out: a stable share of people per journey (not per entry), so a person is on the
 * same side every time they enter and the two sides stay comparable over the journey's life.
 */
public final class HoldOut {
  private HoldOut() {}

  public static boolean holds(long journeyId, String subscriberId, double share) {
    return StableShare.within("journey-holdout:" + journeyId + ":" + subscriberId, share);
  }
}
