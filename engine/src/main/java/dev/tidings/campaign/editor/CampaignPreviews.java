package dev.tidings.campaign.editor;

import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignProblem;
import dev.tidings.campaign.CampaignService;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.recommend.blend.Algorithm;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * A campaign's email for one subscriber as a send now would write it: the email with tokens of the
 * uncounted run (its images show products, opening it counts nothing),
 * whether it would be sent (the subscriber's consent, suppression and data, then the campaign's
 * audience) and what its open-time slots would show, asked without keeping anything (no slot list is
 * kept, so the preview counts as no open). Thread-safe.
 */
public final class CampaignPreviews {
  private final CampaignService campaigns;
  private final CampaignEmails emails;
  private final SlotPreviews slots;
  private final InstantSource clock;

  public CampaignPreviews(
      CampaignService campaigns, CampaignEmails emails, SlotPreviews slots, InstantSource clock) {
    this.campaigns = campaigns;
    this.emails = emails;
    this.slots = slots;
    this.clock = clock;
  }

  /**
   * Empty when there is no subscriber {@code subscriberId}.
   *
   * @throws CampaignProblem not found when there is no campaign {@code campaignId}
   */
  public Optional<CampaignPreview> preview(long campaignId, String subscriberId) {
    Campaign campaign =
        campaigns.get(campaignId).orElseThrow(() -> CampaignProblem.notFound(campaignId));
    var preview = emails.preview(campaign, subscriberId);
    if (preview.isEmpty()) return Optional.empty();
    Optional<String> reason = preview.get().skipped();
    // the composer checks the subscriber (consent, suppression, data); whether the campaign's
    // audience selects them at all is the audience query's answer
    if (reason.isEmpty() && !campaigns.inAudience(campaign, subscriberId))
      reason = Optional.of("not in the campaign's audience: the segment's conditions do not select"
          + " subscriber " + subscriberId);
    return Optional.of(new CampaignPreview(
        campaignId,
        subscriberId,
        preview.get().email(),
        reason.isEmpty(),
        reason,
        slotProducts(campaign, subscriberId)));
  }

  /**
   * The email alone, for what shows only its HTML (the dashboard's frame): neither the audience nor
   * the recommender is asked. Empty when there is no such campaign or subscriber.
   */
  public Optional<OutgoingEmail> email(long campaignId, String subscriberId) {
    return campaigns
        .get(campaignId)
        .flatMap(campaign -> emails.preview(campaign, subscriberId))
        .flatMap(CampaignEmails.Preview::email);
  }

  private List<SlotProduct> slotProducts(Campaign campaign, String subscriberId) {
    var definition = campaign.definition();
    if (definition.slots() == 0) return List.of();
    // the control's slots, as the email a send writes for most of the audience
    int arm = definition
        .experiment()
        .map(experiment -> Algorithm.armOf(experiment.variants().getFirst().algorithms()))
        .orElse(0);
    // the run of the preview's own tokens, so the list beside it is what its images show
    var message = new MessageId(campaign.id(), MessageId.UNCOUNTED_RUN, subscriberId);
    return slots.wouldShow(new MessageToken(message, clock.instant(), definition.slots(), arm));
  }
}
