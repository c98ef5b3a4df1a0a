package dev.tidings.campaign;

import dev.tidings.mail.Address;
import dev.tidings.message.MessageToken;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * @param experiment present when the campaign tests variants of itself
 * @param sendTime when each recipient's email goes: at once, or at their usual hour
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
    Optional<DigestOptions> digest,
    Optional<Experiment> experiment,
    SendTime sendTime) {
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
    Objects.requireNonNull(experiment, "experiment");
    Objects.requireNonNull(sendTime, "sendTime");
    if (slots < 0 || slots > MessageToken.MAX_SLOTS)
      throw new IllegalArgumentException("slots must be within 0.." + MessageToken.MAX_SLOTS);
    if (priority < 0 || priority > MAX_PRIORITY)
      throw new IllegalArgumentException("priority must be within 0.." + MAX_PRIORITY);
    if (!(ratePerSecond > 0 && ratePerSecond <= MAX_RATE))
      throw new IllegalArgumentException("ratePerSecond must be within (0, " + MAX_RATE + "]");
  }

  /** A definition sent at once. */
  public CampaignDefinition(
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
      Optional<DigestOptions> digest,
      Optional<Experiment> experiment) {
    this(
        name,
        from,
        replyTo,
        subject,
        html,
        text,
        audience,
        slots,
        priority,
        ratePerSecond,
        scheduledAt,
        digest,
        experiment,
        SendTime.AT_ONCE);
  }

  /** The same definition sent as {@code sendTime} says. */
  public CampaignDefinition withSendTime(SendTime sendTime) {
    return new CampaignDefinition(
        name,
        from,
        replyTo,
        subject,
        html,
        text,
        audience,
        slots,
        priority,
        ratePerSecond,
        scheduledAt,
        digest,
        experiment,
        sendTime);
  }

  /** Variant {@code index} of the experiment as a definition of its own (0 and no experiment: this). */
  public CampaignDefinition variant(int index) {
    if (experiment.isEmpty()
        || index == 0 && isPlain(experiment.get().variants().getFirst())) return this;
    var variant = experiment.get().variants().get(index);
    return new CampaignDefinition(
        name,
        from,
        replyTo,
        variant.subject().orElse(subject),
        variant.html().orElse(html),
        variant.text().orElse(text),
        audience,
        slots,
        priority,
        ratePerSecond,
        scheduledAt,
        digest,
        experiment,
        sendTime);
  }

  /**
   * The rollout of an A/B experiment: variant {@code winner} as a campaign of its own, without the
   * experiment, to this audience less those the test sent one of the variants to (campaign {@code
   * testedIn}).
   */
  public CampaignDefinition rollout(long testedIn, int winner) {
    var won = variant(winner);
    String label =
        " (winner: " + experiment.orElseThrow().variants().get(winner).name() + ")";
    String rolloutName = name.length() + label.length() > MAX_NAME
        ? name.substring(0, MAX_NAME - label.length()) + label
        : name + label;
    var notTested = new Condition.InExperiment(testedIn, false);
    Audience rest = switch (audience) {
      case Audience.All all -> new Audience.Segment(List.of(notTested));
      case Audience.Segment segment -> {
        var conditions = new ArrayList<>(segment.conditions());
        conditions.add(notTested);
        yield new Audience.Segment(conditions);
      }
    };
    return new CampaignDefinition(
        rolloutName,
        from,
        replyTo,
        won.subject(),
        won.html(),
        won.text(),
        rest,
        slots,
        priority,
        ratePerSecond,
        Optional.empty(),
        digest,
        Optional.empty(),
        sendTime);
  }

  private static boolean isPlain(Experiment.Variant variant) {
    return variant.subject().isEmpty()
        && variant.html().isEmpty()
        && variant.text().isEmpty();
  }

  /** The state a definition is stored in: SCHEDULED when it has a start time, else DRAFT. */
  public CampaignState definitionState() {
    return scheduledAt.isPresent() ? CampaignState.SCHEDULED : CampaignState.DRAFT;
  }
}
