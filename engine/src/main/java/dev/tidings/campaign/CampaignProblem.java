package dev.tidings.campaign;

import dev.tidings.ErrorKind;
import dev.tidings.TidingsException;

/** A campaign request that cannot be done as asked: not found, in conflict, or not possible on this node. */
public final class CampaignProblem extends TidingsException {
  private final ErrorKind kind;

  CampaignProblem(ErrorKind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public static CampaignProblem notFound(long id) {
    return new CampaignProblem(ErrorKind.NOT_FOUND, "no campaign with id " + id);
  }

  public static CampaignProblem subscriberNotFound(String subscriberId) {
    return new CampaignProblem(ErrorKind.NOT_FOUND, "no subscriber with id " + subscriberId);
  }

  static CampaignProblem conflict(String message) {
    return new CampaignProblem(ErrorKind.CONFLICT, message);
  }

  @Override
  public ErrorKind kind() {
    return kind;
  }
}
