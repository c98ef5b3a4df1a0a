package dev.tidings.campaign.editor;

import dev.tidings.EmailAddress;
import dev.tidings.InvalidInputException;
import dev.tidings.Problems;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignProblem;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.coordination.RateLimiter;
import dev.tidings.mail.Address;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.mail.SendResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a campaign's email to an address its author types, to see it in a real mail client: written as
 * a subscriber (or {@link #SAMPLE_ID}, a neutral sample, when none is named), in run {@link
 * dev.tidings.message.MessageId#UNCOUNTED_RUN} so that its opens, clicks and receipts are counted in no
 * funnel, its subject prefixed {@value #SUBJECT_PREFIX} and marked {@value #HEADER}. It goes through
 * the node's mail transport directly, not the send queue, at most a set number a minute across the
 * installation (the coordination's {@link RateLimiter}, shared by every node when Redis coordinates
 * them). Counted in {@value #METRIC}{@code {outcome}}. Thread-safe.
 */
public final class TestSends {
  private static final Logger log = LoggerFactory.getLogger(TestSends.class);

  public static final String METRIC = "tidings_campaign_test_sends";
  public static final String SUBJECT_PREFIX = "[Test] ";
  public static final String HEADER = "X-Tidings-Test";
  public static final String SAMPLE_ID = "sample";
  private static final String LIMIT_KEY = "campaign-test-sends";

  private final CampaignService campaigns;
  private final CampaignEmails emails;
  private final SubscriberService subscribers;
  private final MailTransport mail;
  private final RateLimiter limiter;
  private final RateLimiter.Limit limit;
  private final Map<String, Counter> outcomes = new LinkedHashMap<>();

  /** @param perMinute test sends the installation takes a minute (a bucket of as many, refilled as fast) */
  public TestSends(
      CampaignService campaigns,
      CampaignEmails emails,
      SubscriberService subscribers,
      MailTransport mail,
      RateLimiter limiter,
      int perMinute,
      MeterRegistry metrics) {
    this.campaigns = campaigns;
    this.emails = emails;
    this.subscribers = subscribers;
    this.mail = mail;
    this.limiter = limiter;
    this.limit = new RateLimiter.Limit(perMinute / 60.0, perMinute);
    for (String outcome : new String[] {"sent", "refused", "failed", "limited"})
      outcomes.put(
          outcome,
          Counter.builder(METRIC)
              .description("Test sends of campaigns to a typed address, by outcome")
              .tag("outcome", outcome)
              .register(metrics));
  }

  /**
   * @throws InvalidInputException naming {@code to} or {@code subscriberId} when either is not one
   * @throws CampaignProblem not found when the campaign or the named subscriber does not exist
   */
  public TestSendResult send(long campaignId, String to, Optional<String> subscriberId) {
    TestSendResult result;
    try {
      result = attempt(campaignId, to, subscriberId);
    } catch (RuntimeException e) {
      count("refused");
      throw e;
    }
    count(
        switch (result) {
          case TestSendResult.Sent sent -> "sent";
          case TestSendResult.Refused refused -> "refused";
          case TestSendResult.Failed failed -> "failed";
          case TestSendResult.Limited limited -> "limited";
        });
    return result;
  }

  private TestSendResult attempt(long campaignId, String to, Optional<String> subscriberId) {
    if (EmailAddress.parse(to) instanceof EmailAddress.Invalid invalid)
      throw new InvalidInputException("to " + invalid.message());
    if (subscriberId.isPresent() && !Problems.isId(subscriberId.get()))
      throw new InvalidInputException(
          "subscriberId must be a subscriber id (1-64 characters of A-Z a-z 0-9 . _ : -)");
    Campaign campaign =
        campaigns.get(campaignId).orElseThrow(() -> CampaignProblem.notFound(campaignId));
    Subscriber subscriber = subscriberId.isEmpty()
        ? sample(to)
        : subscribers
            .get(subscriberId.get())
            .orElseThrow(() -> CampaignProblem.subscriberNotFound(subscriberId.get()));
    var decision = limiter.tryAcquire(LIMIT_KEY, limit, 1);
    if (!decision.granted()) return new TestSendResult.Limited(decision.retryAfter());
    OutgoingEmail email;
    switch (emails.testEmail(campaign, subscriber)) {
      case CampaignRenderer.Result.Refused refused -> {
        return new TestSendResult.Refused(refused.reason());
      }
      case CampaignRenderer.Result.Written written -> {
        try {
          email = asTest(written.email(), to);
        } catch (IllegalArgumentException e) {
          return new TestSendResult.Refused(String.valueOf(e.getMessage()));
        }
      }
    }
    SendResult sent = mail.send(email);
    // the typed address stays out of the log, as subscribers' addresses do
    log.info("test send of campaign {}: {}", campaignId, sent.getClass().getSimpleName());
    return switch (sent) {
      case SendResult.Accepted accepted ->
        new TestSendResult.Sent(email.messageId(), email.to().email(), email.subject());
      case SendResult.Rejected rejected ->
        new TestSendResult.Failed("refused: " + rejected.code() + " " + rejected.reply());
      case SendResult.Deferred deferred ->
        new TestSendResult.Failed("deferred: " + deferred.code() + " " + deferred.reply());
      case SendResult.Unknown unknown -> new TestSendResult.Failed("unknown: " + unknown.reason());
      case SendResult.Withheld withheld ->
        new TestSendResult.Failed("withheld: " + withheld.reason());
    };
  }

  /** To the typed address, the subject prefixed and the test header added. */
  private static OutgoingEmail asTest(OutgoingEmail email, String to) {
    Map<String, String> headers = new LinkedHashMap<>(email.headers());
    headers.put(HEADER, "true");
    return new OutgoingEmail(
        email.messageId(),
        email.from(),
        new Address(to, Optional.empty()),
        SUBJECT_PREFIX + email.subject(),
        email.text(),
        email.html(),
        headers,
        email.replyTo());
  }

  /** A neutral subscriber for a test send that names none: the typed address, no place. */
  private static Subscriber sample(String to) {
    return new Subscriber(
        SAMPLE_ID,
        to,
        Optional.of("Sample Subscriber"),
        Locale.ENGLISH,
        ZoneOffset.UTC,
        Optional.empty(),
        Consent.SUBSCRIBED);
  }

  private void count(String outcome) {
    Objects.requireNonNull(outcomes.get(outcome)).increment();
  }
}
