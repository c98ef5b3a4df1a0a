package dev.tidings.campaign.send;

/**
 * Names of the structured fields (MDC) that log lines about a send carry: JSON logs show them as
 * fields of their own, so a log query finds every line about one campaign, run or email.
 */
public final class LogFields {
  public static final String CAMPAIGN = "campaign_id";
  public static final String RUN = "run_id";
  public static final String MESSAGE = "message_id";

  private LogFields() {}
}
