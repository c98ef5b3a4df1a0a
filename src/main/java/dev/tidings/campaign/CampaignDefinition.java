package dev.tidings.campaign;

import dev.tidings.mail.Address;
import dev.tidings.message.MessageToken;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a campaign's author writes: everything but its id and state. Templates are Mustache sources,
 * checked by {@link CampaignTemplates#compile} before a definition is stored.
 *
 * @param slots open-time product slots per email, 0..{@value MessageToken#MAX_SLOTS}
 * @param priority the work queue's, 0 (lowest) .. 9
 * @param ratePerSecond emails per second across every worker
 * @param scheduledAt when to start by itself; empty for a campaign started by hand
 * @param digest present for a digest campaign: each email tells what the subscriber follows
 */
public record CampaignDefinition(
    String name,
    Address from,
    Optional<Address> replyTo,
    String subject,
    String html,
    String text,
    Audience audience,
    int slots,
    int priority,
    double ratePerSecond,
    Optional<Instant> scheduledAt,
    Optional<DigestOptions> digest) {
  public static final int MAX_NAME = 200;
  public static final int MAX_SUBJECT = 500;
  public static final int MAX_PRIORITY = 9;
  public static final double MAX_RATE = 1_000_000;

  public CampaignDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(replyTo, "replyTo");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(html, "html");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(audience, "audience");
    Objects.requireNonNull(scheduledAt, "scheduledAt");
    Objects.requireNonNull(digest, "digest");
    if (slots < 0 || slots > MessageToken.MAX_SLOTS)
      throw new IllegalArgumentException("slots must be within 0.." + MessageToken.MAX_SLOTS);
    if (priority < 0 || priority > MAX_PRIORITY)
      throw new IllegalArgumentException("priority must be within 0.." + MAX_PRIORITY);
    if (!(ratePerSecond > 0 && ratePerSecond <= MAX_RATE))
      throw new IllegalArgumentException("ratePerSecond must be within (0, " + MAX_RATE + "]");
  }

  /** The state a definition is stored in: SCHEDULED when it has a start time, else DRAFT. */
  public CampaignState definitionState() {
    return scheduledAt.isPresent() ? CampaignState.SCHEDULED : CampaignState.DRAFT;
  }
}
