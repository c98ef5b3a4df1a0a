package dev.tidings.campaign;

import dev.tidings.EmailAddress;
import dev.tidings.audience.Consent;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import dev.tidings.recommend.blend.Algorithm;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;

/**
 * The campaign capability's {@link dev.tidings.campaign.send.Composer}: at send time it reads the
 * subscriber as they are then, skips whoever must not be mailed (gone, an address that is not one bare
 * address, not consenting, suppressed, or data that would break a header) and renders the rest. {@link #composeAll} reads a whole batch's
 * subscribers and suppressions in one query each. Thread-safe.
 */
public final class CampaignEmails implements BatchComposer {
  /** Subscribers skipped at send time because their stored address is not one bare address. */
  public static final String REFUSED_ADDRESSES = "tidings_send_addresses_refused";

  private final CompiledCampaigns campaigns;
  private final SubscriberService subscribers;
  private final SuppressionService suppressions;
  private final CampaignRenderer renderer;
  private final DigestSource digests;
  private final ExperimentLedger experiments;
  private final VariantChooser variants;
  private final TemplateProducts templateProducts;
  private final EntryContext entries;
  private final Map<EmailAddress.Problem, Counter> refusedAddresses =
      new EnumMap<>(EmailAddress.Problem.class);

  /** Campaign emails on a node that writes no digests and runs no experiments. */
  public CampaignEmails(
      Jdbi jdbi,
      SubscriberService subscribers,
      SuppressionService suppressions,
      CampaignRenderer renderer,
      InstantSource clock,
      MeterRegistry metrics) {
    this(
        jdbi,
        subscribers,
        suppressions,
        renderer,
        DigestSource.NONE,
        ExperimentLedger.NONE,
        clock,
        metrics);
  }

  /**
   * @param metrics counts {@value #REFUSED_ADDRESSES}, the subscribers skipped at send time because their
   *     stored address is not one bare address, by {@link EmailAddress.Problem}
   */
  public CampaignEmails(
      Jdbi jdbi,
      SubscriberService subscribers,
      SuppressionService suppressions,
      CampaignRenderer renderer,
      DigestSource digests,
      ExperimentLedger experiments,
      InstantSource clock,
      MeterRegistry metrics) {
    this(
        jdbi,
        subscribers,
        suppressions,
        renderer,
        digests,
        experiments,
        TemplateProducts.NONE,
        clock,
        metrics);
  }

  /**
   * @param templateProducts where the products a campaign's template names are told when its emails
   *     are written (for open-time slots, which do not show them again)
   */
  public CampaignEmails(
      Jdbi jdbi,
      SubscriberService subscribers,
      SuppressionService suppressions,
      CampaignRenderer renderer,
      DigestSource digests,
      ExperimentLedger experiments,
      TemplateProducts templateProducts,
      InstantSource clock,
      MeterRegistry metrics) {
    this(
        jdbi,
        subscribers,
        suppressions,
        renderer,
        digests,
        experiments,
        templateProducts,
        EntryContext.NONE,
        clock,
        metrics);
  }

  /** @param entries the cards of the journey entry an email is sent for (its cart, its product) */
  public CampaignEmails(
      Jdbi jdbi,
      SubscriberService subscribers,
      SuppressionService suppressions,
      CampaignRenderer renderer,
      DigestSource digests,
      ExperimentLedger experiments,
      TemplateProducts templateProducts,
      EntryContext entries,
      InstantSource clock,
      MeterRegistry metrics) {
    this.templateProducts = templateProducts;
    this.entries = entries;
    this.campaigns = new CompiledCampaigns(
        id -> jdbi.withHandle(handle -> CampaignTable.find(handle, id)), clock);
    this.subscribers = subscribers;
    this.suppressions = suppressions;
    this.renderer = renderer;
    this.digests = digests;
    this.experiments = experiments;
    this.variants = new VariantChooser(experiments, clock);
    for (EmailAddress.Problem problem : EmailAddress.Problem.values()) {
      refusedAddresses.put(
          problem,
          Counter.builder(REFUSED_ADDRESSES)
              .description(
                  "Subscribers skipped at send time: their stored address is not one bare address")
              .tag("reason", problem.label())
              .register(metrics));
    }
  }

  @Override
  public Composed compose(SendJob job, MessageId message) {
    return composeAll(job, List.of(message)).getFirst();
  }

  @Override
  public List<Composed> composeAll(SendJob job, List<MessageId> messages) {
    var entry = campaigns.get(job.campaignId());
    if (entry.isEmpty()) {
      Composed gone = new Composed.Skip("campaign " + job.campaignId() + " no longer exists");
      return messages.stream().map(message -> gone).toList();
    }
    templateProducts.tell(entry.get().campaign());
    Map<String, Subscriber> found = subscribers.getAll(
        messages.stream().map(MessageId::subscriberId).distinct().toList());
    Set<String> suppressed = suppressions.suppressedAmong(
        found.values().stream().map(Subscriber::email).distinct().toList());
    if (entry.get().campaign().definition().digest().isPresent()) digests.prepare(found.keySet());
    Map<String, List<DigestSource.Notice>> cards =
        entries.cards(job.campaignId(), job.runId(), found.keySet());
    List<Composed> out = new ArrayList<>(messages.size());
    for (MessageId message : messages) {
      Subscriber subscriber = found.get(message.subscriberId());
      out.add(compose(
          entry.get(),
          subscriber,
          suppressed,
          message,
          cards.getOrDefault(message.subscriberId(), List.of())));
    }
    return out;
  }

  /**
   * An email for one subscriber, whether or not it would be sent, and why not. Its tokens are of the
   * uncounted run ({@link MessageId#UNCOUNTED_RUN}), even for a campaign that has run: a preview opened
   * in the dashboard's frame or a client's preview pane shows its products and records nothing.
   */
  public record Preview(Optional<OutgoingEmail> email, Optional<String> skipped) {}

  public Optional<Preview> preview(Campaign campaign, String subscriberId) {
    Optional<Subscriber> subscriber = subscribers.get(subscriberId);
    if (subscriber.isEmpty()) return Optional.empty();
    var entry = campaigns.of(campaign);
    templateProducts.tell(campaign);
    var message = new MessageId(campaign.id(), MessageId.UNCOUNTED_RUN, subscriberId);
    Optional<String> skip =
        EmailAddress.parse(subscriber.get().email()) instanceof EmailAddress.Invalid invalid
            ? Optional.of(unusable(subscriber.get(), invalid))
            : skipReason(
                subscriber.get(), suppressions.isSuppressed(subscriber.get().email()));
    DigestSource.Pending digest = pendingDigest(campaign.definition(), subscriberId);
    if (skip.isEmpty()) skip = tooLittle(campaign.definition(), digest);
    return Optional.of(
        switch (render(entry, 0, subscriber.get(), message, digest.notices())) {
          case CampaignRenderer.Result.Written written ->
            new Preview(Optional.of(written.email()), skip);
          case CampaignRenderer.Result.Refused refused ->
            new Preview(Optional.empty(), Optional.of(refused.reason()));
        });
  }

  /**
   * The campaign's email (its control variant) written for {@code subscriber} as a test send: in run
   * {@link MessageId#UNCOUNTED_RUN}, so that nothing that happens to it is counted, with no check of
   * consent or suppression (the tester chose the address) and nothing marked sent.
   */
  public CampaignRenderer.Result testEmail(Campaign campaign, Subscriber subscriber) {
    var message = new MessageId(campaign.id(), MessageId.UNCOUNTED_RUN, subscriber.id());
    DigestSource.Pending digest = pendingDigest(campaign.definition(), subscriber.id());
    return render(campaigns.of(campaign), 0, subscriber, message, digest.notices());
  }

  private Composed compose(
      CompiledCampaigns.Entry entry,
      @Nullable Subscriber subscriber,
      Set<String> suppressed,
      MessageId message,
      List<DigestSource.Notice> cards) {
    if (subscriber == null)
      return new Composed.Skip("subscriber " + message.subscriberId() + " no longer exists");
    if (EmailAddress.parse(subscriber.email()) instanceof EmailAddress.Invalid invalid) {
      Objects.requireNonNull(refusedAddresses.get(invalid.problem())).increment();
      return new Composed.Skip(unusable(subscriber, invalid));
    }
    Optional<String> skip = skipReason(subscriber, suppressed.contains(subscriber.email()));
    if (skip.isPresent()) return new Composed.Skip(skip.get());
    CampaignDefinition definition = entry.campaign().definition();
    int variant = 0;
    if (definition.experiment().isPresent()) {
      var choice =
          variants.choose(entry.campaign().id(), definition.experiment().get(), subscriber.id());
      if (!(choice instanceof VariantChooser.Choice.Send send))
        return new Composed.Skip("held back for the experiment's winner");
      variant = send.variant();
    }
    DigestSource.Pending digest = pendingDigest(definition, subscriber.id());
    Optional<String> nothingToTell = tooLittle(definition, digest);
    if (nothingToTell.isPresent()) return new Composed.Skip(nothingToTell.get());
    int chosen = variant;
    List<DigestSource.Notice> notices = digest.notices();
    if (!cards.isEmpty()) {
      notices = new ArrayList<>(cards);
      notices.addAll(digest.notices());
    }
    return switch (render(entry, chosen, subscriber, message, notices)) {
      case CampaignRenderer.Result.Written written ->
        definition.digest().isEmpty() && definition.experiment().isEmpty()
            ? new Composed.Email(written.email())
            : new Composed.Email(
                written.email(),
                () -> {
                  if (definition.experiment().isPresent()) experiments.sent(message, chosen);
                  if (definition.digest().isPresent()) digest.sent(message);
                },
                definition.digest().isPresent() ? digest.note() : null);
      case CampaignRenderer.Result.Refused refused -> new Composed.Skip(refused.reason());
    };
  }

  /** Only a digest leaves a note with its handover: it is the digest's to mark told. */
  @Override
  public void sentByLostWorker(MessageId message, String note) {
    digests.sentByLostWorker(message, note);
  }

  private DigestSource.Pending pendingDigest(CampaignDefinition definition, String subscriberId) {
    return definition
        .digest()
        .map(options -> digests.pending(subscriberId, options.lookBackDays()))
        .orElse(DigestSource.Pending.NOTHING);
  }

  /** A digest with less to tell than its minimum is not sent. */
  private static Optional<String> tooLittle(
      CampaignDefinition definition, DigestSource.Pending digest) {
    return definition
        .digest()
        .filter(options -> digest.notices().size() < options.minimum())
        .map(options -> "nothing to tell: " + digest.notices().size()
            + " new for this subscriber, the digest's minimum is " + options.minimum());
  }

  private CampaignRenderer.Result render(
      CompiledCampaigns.Entry entry,
      int variant,
      Subscriber subscriber,
      MessageId message,
      List<DigestSource.Notice> notices) {
    Campaign campaign = entry.campaign();
    int arm = campaign
        .definition()
        .experiment()
        .map(experiment -> Algorithm.armOf(experiment.variants().get(variant).algorithms()))
        .orElse(0);
    return renderer.render(
        campaign.id(),
        campaign.definition().variant(variant),
        entry.variants().get(variant),
        subscriber,
        message,
        notices,
        arm);
  }

  /**
   * Why the stored address cannot be mailed. It is parsed again at send time: a row may predate the
   * address rule or have been written to the table directly, and a header or the SMTP envelope must
   * never carry more than the one address.
   */
  private static String unusable(Subscriber subscriber, EmailAddress.Invalid invalid) {
    return "the address of subscriber " + subscriber.id() + " cannot be mailed: it "
        + invalid.message();
  }

  private static Optional<String> skipReason(Subscriber subscriber, boolean suppressed) {
    if (subscriber.consent() != Consent.SUBSCRIBED)
      return Optional.of("subscriber " + subscriber.id() + " has consent "
          + subscriber.consent().wire());
    if (suppressed)
      return Optional.of("the address of subscriber " + subscriber.id() + " is suppressed");
    return Optional.empty();
  }
}
