package dev.tidings.campaign;

import java.util.Collection;
import java.util.Set;
import java.util.function.Function;

/**
 * The catalogue products a campaign's template names, by a link to their landing URL or by their
 * image URL (every variant's HTML), so that its emails' open-time slots do not show them again. The
 * catalogue answers which products the URLs are.
 */
public final class TemplateProducts implements Function<Long, Set<String>> {
  private final CampaignService campaigns;
  private final Function<Collection<String>, Set<String>> productsAt;

  /** {@code productsAt}: the ids of the products whose landing or image URL is among the URLs. */
  public TemplateProducts(
      CampaignService campaigns, Function<Collection<String>, Set<String>> productsAt) {
    this.campaigns = campaigns;
    this.productsAt = productsAt;
  }

  @Override
  public Set<String> apply(Long campaignId) {
    return campaigns
        .get(campaignId)
        .map(campaign -> productsAt.apply(TemplateLinks.urls(campaign.definition())))
        .orElse(Set.of());
  }
}
