package dev.tidings.campaign;

import dev.tidings.TidingsException;

/** A campaign request that cannot be done as asked; the HTTP edge answers 404, 409 or 503 by its kind. */
public final class CampaignProblem extends TidingsException {
  public enum Kind {
    NOT_FOUND,
    CONFLICT,
    UNAVAILABLE
  }

  private final Kind kind;
  private final String detail;

  CampaignProblem(Kind kind, String message) {
    super(message);
    this.kind = kind;
    this.detail = message;
  }

  /** What is wrong, for the person who asked. */
  public String detail() {
    return detail;
  }

  static CampaignProblem notFound(long id) {
    return new CampaignProblem(Kind.NOT_FOUND, "no campaign with id " + id);
  }

  static CampaignProblem subscriberNotFound(String subscriberId) {
    return new CampaignProblem(Kind.NOT_FOUND, "no subscriber with id " + subscriberId);
  }

  static CampaignProblem conflict(String message) {
    return new CampaignProblem(Kind.CONFLICT, message);
  }

  public Kind kind() {
    return kind;
  }
}
